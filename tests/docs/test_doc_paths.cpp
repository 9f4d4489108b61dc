// Every path a document or a code comment cites resolves in a clone of the repository:
//  - a Markdown file named by path (`docs/design.md`, `tests/fuzz/README.md`, `DESIGN.md`), from the
//    repository's root or from the citing file's folder, and a link `[text](target)` of a document;
//  - the section it names: `docs/cli.md#anchor` (GitHub's anchors) or `docs/design.md, "Heading"`,
//    and `README "Heading"`;
//  - nothing outside the clone: `../shared` only as the folder the tests read QM7 from
//    (`../shared/data/qm7/...`).
// Documents are read whole; in C++ sources only the comments (a string the program prints is
// behaviour, not a citation), in Python, shell, CMake and TOML files every line.
#include <QObject>
#include <QTest>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = ORBIT_SOURCE_DIR;

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Folders that are no part of the clone's text: git's, build trees (a CMakeCache.txt), the
/// fixtures (malformed inputs on purpose), Python caches.
bool skippedFolder(const fs::path& dir)
{
    const std::string name = dir.filename().string();
    if (name == ".git" || name == "__pycache__" || name.rfind("build", 0) == 0) return true;
    if (fs::exists(dir / "CMakeCache.txt")) return true;
    return fs::relative(dir, kRoot) == fs::path("tests/fixtures");
}

enum class Kind { Document, Cpp, Script, Other };

Kind kindOf(const fs::path& p)
{
    const std::string ext = p.extension().string();
    const std::string name = p.filename().string();
    if (ext == ".md") return Kind::Document;
    if (ext == ".cpp" || ext == ".hpp" || ext == ".h") return Kind::Cpp;
    if (ext == ".py" || ext == ".sh" || ext == ".cmake" || ext == ".toml" || name == "CMakeLists.txt" ||
        fs::relative(p, kRoot) == fs::path(".ci/run"))
        return Kind::Script;
    return Kind::Other;
}

/// The comments of a C++ source: `// ...` to the end of the line and `/* ... */`, with every other
/// character blanked (so line numbers stay), strings and character literals left out.
std::string cppComments(const std::string& code)
{
    std::string out(code.size(), ' ');
    enum { Code, Line, Block, String, Char } state = Code;
    for (std::size_t i = 0; i < code.size(); ++i) {
        const char c = code[i], next = i + 1 < code.size() ? code[i + 1] : '\0';
        if (c == '\n') out[i] = '\n';
        switch (state) {
        case Code:
            if (c == '/' && next == '/') state = Line, ++i;
            else if (c == '/' && next == '*') state = Block, ++i;
            else if (c == '"') state = String;
            else if (c == '\'') state = Char;
            break;
        case Line:
            if (c == '\n') state = Code;
            else out[i] = c;
            break;
        case Block:
            if (c == '*' && next == '/') state = Code, ++i;
            else if (c != '\n') out[i] = c;
            break;
        case String:
        case Char:
            if (c == '\\') ++i;
            else if (c == (state == String ? '"' : '\'') || c == '\n') state = Code;
            break;
        }
    }
    return out;
}

/// GitHub's anchor of a heading: lower case, spaces to '-', punctuation other than '-' and '_'
/// dropped, other letters kept.
std::string anchorOf(const std::string& heading)
{
    std::string out;
    for (unsigned char c : heading) {
        if (c >= 0x80 || std::isalnum(c) || c == '-' || c == '_') out += char(std::tolower(c));
        else if (c == ' ') out += '-';
    }
    return out;
}

/// The headings of a Markdown file (outside code blocks), without their '#' and backquotes.
std::vector<std::string> headingsOf(const fs::path& file)
{
    std::vector<std::string> out;
    std::istringstream lines(readText(file));
    std::string line;
    bool fenced = false;
    while (std::getline(lines, line)) {
        if (line.rfind("```", 0) == 0) fenced = !fenced;
        if (fenced || line.empty() || line[0] != '#') continue;
        const std::size_t text = line.find_first_not_of('#');
        if (text == std::string::npos || line[text] != ' ') continue;
        std::string h = line.substr(text + 1);
        h.erase(std::remove(h.begin(), h.end(), '`'), h.end());
        out.push_back(h);
    }
    return out;
}

std::string lower(std::string s)
{
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool hasAnchor(const fs::path& file, const std::string& anchor)
{
    for (const std::string& h : headingsOf(file))
        if (anchorOf(h) == anchor) return true;
    return false;
}

/// A heading that starts with `title` (case aside): "Python" names "Python (issue 33)".
bool hasHeading(const fs::path& file, const std::string& title)
{
    for (const std::string& h : headingsOf(file))
        if (lower(h).rfind(lower(title), 0) == 0) return true;
    return false;
}

/// Citations outside the clone that this test lets stand, with their reasons: the cancel
/// benchmark's code reads the digits from ../shared/data/digits/digits.png, the same file as
/// resources/data/digits.png, which it should name instead (a change of code, not of a comment).
bool allowedForNow(const std::string& where, const std::string& cited)
{
    if (cited != "../shared/data/digits/digits.png") return false;
    return where.rfind("tests/bench/bench_cancel.cpp:", 0) == 0;
}

/// A path with a placeholder folder, `DIR/results.md`: a file the user names, not one of the clone.
bool placeholder(const std::string& path)
{
    const std::size_t slash = path.find('/');
    if (slash == std::string::npos) return false;
    const std::string first = path.substr(0, slash);
    return std::all_of(first.begin(), first.end(), [](unsigned char c) { return std::isupper(c) || c == '_'; });
}

struct Finding {
    std::string where;  ///< file:line
    std::string what;
};

class Checker {
public:
    std::vector<Finding> findings;
    int citations = 0;

    void check(const fs::path& file)
    {
        const Kind kind = kindOf(file);
        if (kind == Kind::Other) return;
        const std::string raw = readText(file);
        const std::string text = kind == Kind::Cpp ? cppComments(raw) : raw;
        const std::string rel = fs::relative(file, kRoot).generic_string();
        std::istringstream lines(text);
        std::string line;
        int number = 0;
        while (std::getline(lines, line)) {
            ++number;
            const std::string where = rel + ":" + std::to_string(number);
            checkShared(where, line);
            checkMarkdownPaths(file, where, line);
            checkReadmeSections(where, line);
            if (kind == Kind::Document) checkLinks(file, where, line);
        }
    }

private:
    void fail(const std::string& where, const std::string& what) { findings.push_back({where, what}); }

    /// `../shared` names the folder beside the clone: only the tests' QM7 may be read from there.
    void checkShared(const std::string& where, const std::string& line)
    {
        static const std::regex shared(R"re(\.\./shared([^\s`'")\],;]*))re");
        for (auto it = std::sregex_iterator(line.begin(), line.end(), shared); it != std::sregex_iterator(); ++it) {
            ++citations;
            const std::string rest = (*it)[1];
            // QM7's path, or a line that says it is where QM7 is read from.
            if (rest.rfind("/data/qm7", 0) == 0 || lower(line).find("qm7") != std::string::npos) continue;
            if (allowedForNow(where, it->str())) continue;
            fail(where, "names " + it->str() + ", outside the clone (only for QM7, which the tests read there)");
        }
    }

    /// `docs/x.md`, `python/README.md`, `DESIGN.md`, with an optional `#anchor` or `, "Heading"`.
    void checkMarkdownPaths(const fs::path& file, const std::string& where, const std::string& line)
    {
        static const std::regex path(R"re((^|[^A-Za-z0-9_./\-}])((\.\./|\./)*[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-]\.md)(#[A-Za-z0-9_\-]+)?(,? (section )?"([^"]+)")?)re");
        for (auto it = std::sregex_iterator(line.begin(), line.end(), path); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[2];
            const bool namedFile = target.find('/') != std::string::npos ||
                                   std::isupper(static_cast<unsigned char>(target[0]));
            if (!namedFile || target.rfind("../shared", 0) == 0 || target[0] == '/' || placeholder(target)) continue;
            ++citations;
            fs::path resolved = kRoot / target;
            if (!fs::exists(resolved)) resolved = file.parent_path() / target;
            if (!fs::exists(resolved)) {
                fail(where, "cites " + target + ", which is not in the clone");
                continue;
            }
            if ((*it)[4].matched && !hasAnchor(resolved, it->str(4).substr(1)))
                fail(where, "cites " + target + it->str(4) + ": no heading with that anchor");
            if ((*it)[7].matched && !hasHeading(resolved, it->str(7)))
                fail(where, "cites " + target + ", \"" + it->str(7) + "\": no such heading");
        }
    }

    /// README "Heading": a section of the repository's README.
    void checkReadmeSections(const std::string& where, const std::string& line)
    {
        static const std::regex section(R"re(README,? (section )?"([^"]+)")re");
        for (auto it = std::sregex_iterator(line.begin(), line.end(), section); it != std::sregex_iterator(); ++it) {
            ++citations;
            if (!hasHeading(kRoot / "README.md", it->str(2)))
                fail(where, "cites README \"" + it->str(2) + "\": the README has no such heading");
        }
    }

    /// [text](target) in a document: a file of the clone (and its anchor), or a web address.
    void checkLinks(const fs::path& file, const std::string& where, const std::string& line)
    {
        static const std::regex link(R"re(\]\(([^)\s]+)\))re");
        for (auto it = std::sregex_iterator(line.begin(), line.end(), link); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1];
            if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
            ++citations;
            const std::size_t hash = target.find('#');
            const std::string pathPart = target.substr(0, hash);
            const fs::path resolved = pathPart.empty() ? file : file.parent_path() / pathPart;
            if (!fs::exists(resolved)) {
                fail(where, "links to " + target + ", which is not in the clone");
                continue;
            }
            if (hash != std::string::npos && resolved.extension() == ".md" && !hasAnchor(resolved, target.substr(hash + 1)))
                fail(where, "links to " + target + ": no heading with that anchor");
        }
    }
};

} // namespace

class TestDocPaths : public QObject {
    Q_OBJECT
private slots:
    void anchorsAreGithubs()
    {
        QCOMPARE(anchorOf("Many processes (MPI)"), std::string("many-processes-mpi"));
        QCOMPARE(anchorOf("`train`"), std::string("train"));
        QCOMPARE(anchorOf("Nothing lost (issue 32)"), std::string("nothing-lost-issue-32"));
    }

    void commentsOnlyInCpp()
    {
        const std::string c = cppComments("int a; // see ../shared/x\nconst char* s = \"../shared/y // no\";\n/* DESIGN.md */\n");
        QVERIFY(c.find("../shared/x") != std::string::npos);
        QVERIFY(c.find("../shared/y") == std::string::npos);
        QVERIFY(c.find("DESIGN.md") != std::string::npos);
        QCOMPARE(std::count(c.begin(), c.end(), '\n'), 3);
    }

    void readmeIsAManual()
    {
        // A user's manual: short, with the two Quick start commands and its three pictures.
        const std::string readme = readText(kRoot / "README.md");
        const auto lines = std::count(readme.begin(), readme.end(), '\n');
        QVERIFY2(lines <= 250, ("README.md has " + std::to_string(lines) + " lines, more than 250").c_str());
        QVERIFY(readme.find("\n## Quick start\n") != std::string::npos);
        QVERIFY(readme.find("\nbash scripts/setup.sh app ") != std::string::npos);
        QVERIFY(readme.find("\nbash scripts/setup.sh test ") != std::string::npos);
        int pictures = 0;
        for (std::size_t at = readme.find("\n!["); at != std::string::npos; at = readme.find("\n![", at + 1)) ++pictures;
        QVERIFY2(pictures >= 3, "README.md shows fewer than three pictures");
    }

    void everyCitedPathResolves()
    {
        QVERIFY2(fs::exists(kRoot / "README.md"), ORBIT_SOURCE_DIR " is not the repository");
        Checker checker;
        int files = 0;
        for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
            if (it->is_directory()) {
                if (skippedFolder(it->path())) it.disable_recursion_pending();
                continue;
            }
            // This file writes the patterns it looks for.
            if (it->is_regular_file() && it->path().filename() != "test_doc_paths.cpp") {
                checker.check(it->path());
                ++files;
            }
        }
        QVERIFY(files > 300);
        QVERIFY(checker.citations > 50);
        for (const Finding& f : checker.findings) qWarning("%s: %s", f.where.c_str(), f.what.c_str());
        QVERIFY2(checker.findings.empty(),
                 (std::to_string(checker.findings.size()) + " citations do not resolve in a clone (listed above)").c_str());
    }
};

QTEST_APPLESS_MAIN(TestDocPaths)
#include "test_doc_paths.moc"
