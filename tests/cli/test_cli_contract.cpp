// docs/cli.md is the command-line contract: every flag that a subcommand's `--help` lists must be
// named in that subcommand's section of it (`### \`NAME\``), the four common options in its
// "Conventions" section, and every other flag the help text mentions somewhere in it. Every
// subcommand has a section, and every section under "Subcommands" is a subcommand.
#include "CliRunner.hpp"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string readContract()
{
    std::ifstream in(std::string(ORBIT_SOURCE_DIR) + "/docs/cli.md");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool flagChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

/// Whether `text` names `flag` ("--seed", "-n") as a whole word: not as the start of a longer flag
/// (`--seed` in `--seeds`) nor inside one (`-n` in `--n`, `-n` in `x-n`).
bool mentions(const std::string& text, const std::string& flag)
{
    for (std::size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
        const bool before = at == 0 || !flagChar(text[at - 1]);
        const std::size_t end = at + flag.size();
        const bool after = end >= text.size() || !flagChar(text[end]);
        if (before && after) return true;
    }
    return false;
}

/// The text of the section whose heading line is exactly `heading`, up to the next heading of the
/// same or a higher level; empty when there is none.
std::string section(const std::string& doc, const std::string& heading)
{
    std::istringstream lines(doc);
    std::string line, out;
    const std::size_t level = heading.find_first_not_of('#');
    bool in = false, fenced = false;
    while (std::getline(lines, line)) {
        if (line.rfind("```", 0) == 0) fenced = !fenced;
        const std::size_t hashes = fenced ? 0 : line.find_first_not_of('#');
        const bool isHeading = hashes != std::string::npos && hashes > 0 && hashes < line.size() && line[hashes] == ' ';
        if (in && isHeading && hashes <= level) break;
        if (in) out += line + "\n";
        if (!in && line == heading) in = true;
    }
    return out;
}

/// The headings "### `name`" of the section "## Subcommands".
std::vector<std::string> documentedCommands(const std::string& doc)
{
    std::vector<std::string> names;
    const std::regex heading("^### `([^`]+)`$");
    std::istringstream lines(section(doc, "## Subcommands"));
    std::string line;
    std::smatch m;
    while (std::getline(lines, line))
        if (std::regex_match(line, m, heading)) names.push_back(m[1]);
    return names;
}

/// The options of a `--help` text's "options:" list: "-n" and "--n" from "  -n, --n N   ...".
std::vector<std::string> listedOptions(const std::string& help)
{
    std::vector<std::string> out;
    const std::size_t start = help.find("\noptions:\n");
    if (start == std::string::npos) return out;
    std::istringstream lines(help.substr(start + 10));
    std::string line;
    const std::regex option("^  (-([A-Za-z0-9]), )?--([a-z0-9][a-z0-9-]*)( |$).*");
    std::smatch m;
    while (std::getline(lines, line)) {
        if (!std::regex_match(line, m, option)) continue;
        if (m[2].matched) out.push_back("-" + m[2].str());
        out.push_back("--" + m[3].str());
    }
    return out;
}

/// Every "--flag" written anywhere in a text.
std::set<std::string> everyLongFlag(const std::string& text)
{
    std::set<std::string> out;
    const std::regex flag("(^|[^A-Za-z0-9_-])(--[a-z][a-z0-9-]*[a-z0-9])");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
        out.insert((*it)[2]);
    return out;
}

bool isCommon(const std::string& flag)
{
    return flag == "-h" || flag == "--help" || flag == "--seed" || flag == "--threads" || flag == "--json";
}

} // namespace

class TestCliContract : public QObject {
    Q_OBJECT
private slots:
    void mentionsIsAWholeFlag()
    {
        // The check itself can fail: a longer flag or a flag inside another does not count.
        QVERIFY(mentions("see `--seed S`.", "--seed"));
        QVERIFY(!mentions("see `--seeds S`.", "--seed"));
        QVERIFY(!mentions("`--n N`", "-n"));
        QVERIFY(mentions("`-n`/`--n`", "-n"));
        QVERIFY(!mentions("rotate-max", "--rotate"));
        QCOMPARE(listedOptions("x\n\noptions:\n  -r, --r R       copies\n  --out PNG    file\n  --quick     smoke\n"),
                 (std::vector<std::string>{"-r", "--r", "--out", "--quick"}));
    }

    void contractIsInTheSourceTree()
    {
        const std::string doc = readContract();
        QVERIFY2(!doc.empty(), ORBIT_SOURCE_DIR "/docs/cli.md is missing or empty");
        QVERIFY(!section(doc, "## Conventions").empty());
        QVERIFY(!section(doc, "## Subcommands").empty());
    }

    void everySubcommandHasItsSection()
    {
        const std::string doc = readContract();
        const std::vector<std::string> documented = documentedCommands(doc);
        std::string missing, stale;
        for (const orbit::cli::Command& c : orbit::cli::commands())
            if (std::find(documented.begin(), documented.end(), c.name) == documented.end()) missing += " " + c.name;
        for (const std::string& name : documented) {
            bool known = false;
            for (const orbit::cli::Command& c : orbit::cli::commands()) known = known || c.name == name;
            if (!known) stale += " " + name;
        }
        QVERIFY2(missing.empty(), ("docs/cli.md has no section ### `NAME` for the subcommands:" + missing).c_str());
        QVERIFY2(stale.empty(), ("docs/cli.md has sections for subcommands orbitlab-cli does not have:" + stale).c_str());
    }

    void everyFlagOfEveryHelpIsDocumented()
    {
        const std::string doc = readContract();
        const std::string conventions = section(doc, "## Conventions");
        std::string missing;
        int checked = 0;
        for (const orbit::cli::Command& c : orbit::cli::commands()) {
            const orbittest::CliResult help = orbittest::runCli({c.name, "--help"});
            QCOMPARE(help.status, 0);
            const std::vector<std::string> options = listedOptions(help.out);
            // The parser read every option the command declares (and the common ones).
            std::size_t declared = 4 + 1;  // --help, --seed, --threads, --json, and -h
            for (const orbit::cli::Option& o : c.options) declared += o.shortName.empty() ? 1 : 2;
            QVERIFY2(options.size() == declared, (c.name + ": the options list of --help was not read whole").c_str());
            const std::string own = section(doc, "### `" + c.name + "`");
            for (const std::string& flag : options) {
                const std::string& where = isCommon(flag) ? conventions : own;
                if (!mentions(where, flag) && !mentions(section(doc, "## Data options"), flag))
                    missing += "\n  orbitlab-cli " + c.name + " " + flag +
                               (isCommon(flag) ? " (in \"## Conventions\")" : " (in its section ### `" + c.name + "`)");
                ++checked;
            }
            // Flags the help's text names elsewhere (descriptions, lists, examples): somewhere in the contract.
            for (const std::string& flag : everyLongFlag(help.out))
                if (!mentions(doc, flag)) missing += "\n  orbitlab-cli " + c.name + " " + flag + " (named in its --help text)";
        }
        QVERIFY(checked > 100);
        QVERIFY2(missing.empty(), ("docs/cli.md does not name these flags of `--help`:" + missing).c_str());
    }
};

QTEST_APPLESS_MAIN(TestCliContract)
#include "test_cli_contract.moc"
