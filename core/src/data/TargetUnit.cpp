// The unit of a data file's target field, from the README that documents the dataset beside it.
#include "data/LoaderSupport.hpp"

#include <array>
#include <cctype>
#include <filesystem>
#include <set>
#include <system_error>

namespace orbit::data {

namespace {

constexpr std::uintmax_t kMaxReadmeBytes = 256 * 1024;

/// Energy units a dataset README may state, as written there.
constexpr std::array<std::string_view, 6> kUnits{"kcal/mol", "kJ/mol", "meV", "eV", "Hartree", "Ry"};

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_'; }

/// The known units standing as whole words in `line` ("kcal/mol" counts, "kcal/mol2" or "Kelvin" do not).
void unitsIn(const std::string& line, std::set<std::string>& found)
{
    for (std::string_view unit : kUnits) {
        for (std::size_t at = line.find(unit); at != std::string::npos; at = line.find(unit, at + 1)) {
            const std::size_t end = at + unit.size();
            const bool before = at == 0 || !isWordChar(line[at - 1]);
            const bool after = end == line.size() || !isWordChar(line[end]);
            if (before && after) found.insert(std::string(unit));
        }
    }
}

} // namespace

std::string unitFromReadme(const std::string& dataPath, const std::string& key)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::path(dataPath).parent_path();
    for (const char* name : {"README.md", "README.txt", "README"}) {
        const fs::path readme = folder / name;
        if (!fs::is_regular_file(readme, ec) || fs::file_size(readme, ec) > kMaxReadmeBytes || ec) continue;
        const std::string quoted = "`" + key + "`";
        std::set<std::string> units;
        try {
            LineReader reader(readme.string());
            std::string line;
            while (reader.next(line))
                if (line.find(quoted) != std::string::npos) unitsIn(line, units);
        } catch (const LoadError&) {
            return {};  // an unreadable README says nothing; the data itself loaded fine
        }
        return units.size() == 1 ? *units.begin() : std::string();
    }
    return {};
}

} // namespace orbit::data
