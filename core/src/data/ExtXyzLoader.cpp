// Extended XYZ molecules -> Coulomb matrices. Per molecule: an atom-count line, a comment line of
// key=value pairs with energy= (the target, e.g. kcal/mol) and optionally name= and energy_unit=, then
// one line per atom "symbol x y z ..." in Angstrom. The targets' unit is energy_unit= when the file
// states it (the same on every molecule), else what the README beside the file says of `energy`.
#include "data/LoaderSupport.hpp"
#include "orbit/data/Coulomb.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>

namespace orbit {

using namespace orbit::data;

namespace {

constexpr long long kMaxAtoms = 1000;

struct Molecule {
    std::vector<int> charges;
    std::vector<std::array<double, 3>> positionsBohr;
    std::vector<std::size_t> lines;  // the line of each atom, for error messages
    double energy = 0;
    std::string name;
    std::string unit;         // energy_unit= (or energy_units=) of the comment line, or empty
    std::size_t commentLine = 0;
};

/// key=value pairs of an extended-XYZ comment line; values may be "double-quoted".
std::map<std::string, std::string> commentFields(const std::string& line)
{
    std::map<std::string, std::string> fields;
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
        while (i < n && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        const std::size_t k = i;
        while (i < n && line[i] != '=' && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        std::string key = line.substr(k, i - k);
        std::string value;
        if (i < n && line[i] == '=') {
            ++i;
            if (i < n && line[i] == '"') {
                const std::size_t close = line.find('"', i + 1);
                const std::size_t end = close == std::string::npos ? n : close;
                value = line.substr(i + 1, end - i - 1);
                i = close == std::string::npos ? n : close + 1;
            } else {
                const std::size_t v = i;
                while (i < n && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
                value = line.substr(v, i - v);
            }
        }
        if (!key.empty()) fields[key] = value;
    }
    return fields;
}

/// "CL" / "cl" -> "Cl".
std::string normaliseSymbol(std::string_view s)
{
    std::string out(s);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<char>(i == 0 ? std::toupper(static_cast<unsigned char>(out[i]))
                                          : std::tolower(static_cast<unsigned char>(out[i])));
    return out;
}

/// Reads the next molecule; false at a clean end of file.
bool readMolecule(LineReader& reader, const std::string& path, Molecule& m)
{
    std::string line;
    do {
        if (!reader.next(line)) return false;
    } while (isBlank(line));
    const std::size_t countLine = reader.lineNumber();
    std::vector<std::string_view> fields;
    splitWhitespace(line, fields);
    const auto count = fields.size() == 1 ? parseInteger(std::string(fields[0])) : std::nullopt;
    if (!count || *count < 1 || *count > kMaxAtoms)
        fail(LoadErrorKind::BadValue, path, linePos(countLine),
             "expected the number of atoms (an integer from 1 to " + std::to_string(kMaxAtoms) + ")", trim(line));

    if (!reader.next(line))
        fail(LoadErrorKind::Truncated, path, linePos(countLine + 1), "the file ends before the comment line");
    const std::size_t commentLine = reader.lineNumber();
    const auto comment = commentFields(line);
    const auto energy = comment.find("energy");
    if (energy == comment.end())
        fail(LoadErrorKind::MissingVariable, path, linePos(commentLine), "the comment line has no energy=");
    double e = 0;
    switch (parseField(energy->second, e)) {
    case FieldStatus::Ok: break;
    case FieldStatus::NonFinite:
        fail(LoadErrorKind::NonFinite, path, linePos(commentLine), "energy is not finite", energy->second);
    case FieldStatus::NotANumber:
        fail(LoadErrorKind::NotANumber, path, linePos(commentLine), "energy is not a number", energy->second);
    }
    m.energy = e;
    const auto name = comment.find("name");
    m.name = name == comment.end() ? std::string() : name->second;
    auto unit = comment.find("energy_unit");
    if (unit == comment.end()) unit = comment.find("energy_units");
    m.unit = unit == comment.end() ? std::string() : unit->second;
    m.commentLine = commentLine;

    const std::size_t atoms = static_cast<std::size_t>(*count);
    m.charges.resize(atoms);
    m.positionsBohr.resize(atoms);
    m.lines.resize(atoms);
    for (std::size_t a = 0; a < atoms; ++a) {
        if (!reader.next(line))
            fail(LoadErrorKind::Truncated, path, linePos(reader.lineNumber() + 1),
                 "the file ends after " + std::to_string(a) + " of the " + std::to_string(atoms) +
                     " atoms promised on line " + std::to_string(countLine),
                 std::to_string(atoms));
        const std::size_t at = reader.lineNumber();
        splitWhitespace(line, fields);
        if (fields.size() < 4)
            fail(LoadErrorKind::Ragged, path, linePos(at), "an atom line needs a symbol and x y z; found " +
                                                               std::to_string(fields.size()) + " fields",
                 trim(line));
        const auto z = atomicNumber(normaliseSymbol(fields[0]));
        if (!z) fail(LoadErrorKind::UnknownElement, path, fieldPos(at, 1), "unknown element symbol", std::string(fields[0]));
        m.charges[a] = *z;
        for (int k = 0; k < 3; ++k) {
            m.positionsBohr[a][k] = numberOrThrow(fields[k + 1], path, at, k + 2, "coordinate") * kBohrPerAngstrom;
            // |x| > 1e300 Angstrom: differences of such coordinates are inf - inf = NaN.
            if (!(std::abs(m.positionsBohr[a][k]) <= 1e300))
                fail(LoadErrorKind::BadValue, path, fieldPos(at, static_cast<std::size_t>(k + 2)),
                     "coordinate too large (more than 1e300 Angstrom)", std::string(fields[k + 1]));
        }
        m.lines[a] = at;
    }
    return true;
}

} // namespace

Dataset loadExtXyz(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    LineReader reader(path, options.progress);
    std::vector<Molecule> molecules;
    std::size_t largest = 0, atoms = 0;
    Molecule m;
    while ((options.limit == 0 || molecules.size() < options.limit) && readMolecule(reader, path, m)) {
        largest = std::max(largest, m.charges.size());
        atoms += m.charges.size();
        molecules.push_back(std::move(m));
        m = Molecule{};
        // What the molecules read so far hold (per atom: charge, position, line) plus the Coulomb
        // matrices they will become: refused as soon as it exceeds the limit, not when memory runs out.
        const std::size_t pad = options.padTo > 0 ? std::max(largest, static_cast<std::size_t>(options.padTo)) : largest;
        std::size_t held = 0;
        for (std::size_t part : {checkedProduct({molecules.size(), pad, pad, sizeof(float)}),
                                 checkedProduct({atoms, sizeof(int) + 3 * sizeof(double) + sizeof(std::size_t)}),
                                 checkedProduct({molecules.size(), sizeof(Molecule)})})
            if (__builtin_add_overflow(held, part, &held)) held = SIZE_MAX;
        checkMemory(path, linePos(reader.lineNumber()), held, options.maxBytes,
                    std::to_string(molecules.size()) + " molecules (" + std::to_string(atoms) +
                        " atoms) and their Coulomb matrices");
    }
    if (molecules.empty()) fail(LoadErrorKind::Empty, path, {}, "the file holds no molecules");

    const std::size_t pad = options.padTo > 0 ? static_cast<std::size_t>(options.padTo) : largest;
    if (pad < largest)
        throw SpecError("data padding", "the Coulomb matrix size is smaller than the largest molecule (" + std::to_string(largest) + " atoms) of " + path,
                        std::to_string(options.padTo));
    checkFloatMemory(path, {}, wantedCount(options, molecules.size()), checkedProduct({pad, pad}), options.maxBytes);

    Dataset d;
    d.kind = DataKind::Coulomb;
    d.shape = {static_cast<int>(pad), static_cast<int>(pad), 1};
    d.X.resize(static_cast<Eigen::Index>(molecules.size()), static_cast<Eigen::Index>(pad * pad));
    d.held = heldMask(options, molecules.size());
    releaseRows(d.X, d.held);
    bool anyName = false;
    for (std::size_t i = 0; i < molecules.size(); ++i) {
        Molecule& mol = molecules[i];
        const auto clash = d.holds(i) ? coulombMatrix(mol.charges, mol.positionsBohr, static_cast<int>(pad), d.X.data() + i * pad * pad)
                                      : std::nullopt;
        if (clash)
            fail(LoadErrorKind::CoincidentAtoms, path,
                 "lines " + std::to_string(mol.lines[(*clash)[0]]) + " and " + std::to_string(mol.lines[(*clash)[1]]),
                 "two atoms at the same position (the Coulomb matrix would be infinite)");
        if (mol.unit != molecules.front().unit)
            fail(LoadErrorKind::BadValue, path, linePos(mol.commentLine),
                 "energy_unit differs from the first molecule's (" + quoteValue(molecules.front().unit) + ")", mol.unit);
        d.targets.push_back(mol.energy);
        d.charges.push_back(std::move(mol.charges));
        d.positions.push_back(std::move(mol.positionsBohr));  // for moving the atoms later (Predict's jitter)
        anyName = anyName || !mol.name.empty();
        d.names.push_back(std::move(mol.name));
    }
    if (!anyName) d.names.clear();
    d.targetUnit = !molecules.front().unit.empty() ? molecules.front().unit : unitFromReadme(path, "energy");
    return finish(std::move(d), path, Format::ExtXyz);
}

} // namespace orbit
