// The registry is the one description of every group, distribution, feature map, kernel, learner
// and evaluation. These tests hold it to that: names are unique, every default and every slider
// span is a value the object's own constructor accepts, every group or distribution a descriptor
// says applies is accepted by the core (and every other one refused), the CLI contract's names are
// all registered, the parsers and --help texts list what the registry holds, and a spec written
// from random valid values parses back to the same values bit for bit.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

using namespace orbit;

namespace {

const std::vector<GroupKind> kAllGroupKinds = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale,
                                               GroupKind::Affine,   GroupKind::Cyclic,      GroupKind::Permutation,
                                               GroupKind::Orthogonal};

/// A sample shape each data kind can take, small enough for every group (cyclic:n=4 divides 8).
Shape shapeFor(DataKind kind)
{
    switch (kind) {
    case DataKind::Images: return {8, 8, 1};
    case DataKind::Coulomb: return {5, 5, 1};
    case DataKind::Vectors: return {1, 8, 1};
    }
    return {};
}

/// The spec text of a descriptor with every required parameter at its default value.
std::string defaultSpec(const SpecDescriptor& d, const std::vector<ParamDescriptor>& parameters)
{
    Spec s;
    s.name = d.name;
    for (const ParamDescriptor& p : parameters)
        if (p.required)
            s.params[p.key] = p.type == ParamType::Integer ? std::to_string(static_cast<long long>(p.defaultValue))
                                                           : formatNumber(p.defaultValue);
    for (const KeyAlternatives& a : d.alternatives)
        if (a.required) s.params[a.keys.front()] = formatNumber(d.parameter(a.keys.front())->defaultValue);
    return formatSpec(s);
}

std::string defaultSpec(const SpecDescriptor& d) { return defaultSpec(d, d.parameters); }

/// The group of a kind with its default parameters, for a sample shape.
std::shared_ptr<const Group> defaultGroup(GroupKind kind, const Shape& shape = {8, 8, 1})
{
    return makeGroup(defaultSpec(groupDescriptor(kind)), shape, 1);
}

/// Every parameter list of the registry, with a name for messages.
std::vector<std::pair<std::string, const std::vector<ParamDescriptor>*>> allParameterLists()
{
    std::vector<std::pair<std::string, const std::vector<ParamDescriptor>*>> all;
    for (const auto& d : groupDescriptors()) all.push_back({"group " + d.name, &d.parameters});
    for (const auto& d : distributionDescriptors())
        for (GroupKind k : d.groups) all.push_back({"distribution " + d.name + " on " + toString(k), &d.parametersOn(k)});
    for (const auto& d : featureMapDescriptors()) all.push_back({"feature map " + d.name, &d.parameters});
    for (const auto& d : kernelDescriptors()) all.push_back({"kernel " + d.name, &d.parameters});
    for (const auto& d : learnerDescriptors()) all.push_back({"learner " + d.name, &d.parameters});
    for (const auto& d : evaluationDescriptors()) all.push_back({"evaluation " + d.name, &d.parameters});
    return all;
}

template <class D>
std::vector<std::string> namesOf(const std::vector<D>& all)
{
    std::vector<std::string> out;
    for (const D& d : all) out.push_back(d.name);
    return out;
}

std::string messageOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const SpecError& e) {
        return e.what();
    }
    return {};
}

/// A random valid value of a numeric parameter: inside its slider span (log-uniform for logScale).
double randomValue(const ParamDescriptor& p, Rng& rng)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    if (p.type == ParamType::Integer) {
        const double hi = std::min(p.maximum, p.minimum + 1000.0);
        return std::floor(p.minimum + u(rng) * (hi - p.minimum + 1.0 - 1e-9));
    }
    double v = p.logScale ? p.learnMinimum * std::pow(p.learnMaximum / p.learnMinimum, u(rng))
                          : p.learnMinimum + u(rng) * (p.learnMaximum - p.learnMinimum);
    return std::clamp(v, p.learnMinimum, p.learnMaximum);
}

/// A random valid spec of a descriptor's parameters (every parameter given; one of each alternative set).
Spec randomSpec(const SpecDescriptor& d, const std::vector<ParamDescriptor>& parameters, Rng& rng)
{
    Spec s;
    s.name = d.name;
    std::set<std::string> skip;
    for (const KeyAlternatives& a : d.alternatives)
        for (std::size_t i = 1; i < a.keys.size(); ++i) skip.insert(a.keys[i]);
    for (const ParamDescriptor& p : parameters) {
        if (skip.count(p.key)) continue;
        if (p.type == ParamType::Choice)
            s.params[p.key] = p.choices[uniformIndex(rng, p.choices.size())];
        else if (p.type == ParamType::Text)
            s.params[p.key] = p.defaultText;
        else if (p.type == ParamType::Integer)
            s.params[p.key] = std::to_string(static_cast<long long>(randomValue(p, rng)));
        else
            s.params[p.key] = formatNumber(randomValue(p, rng));
    }
    return s;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The backquoted specs of a line of docs/cli.md that starts with `prefix`.
std::vector<std::string> contractSpecs(const std::string& cli, const std::string& prefix)
{
    std::vector<std::string> out;
    std::istringstream lines(cli);
    std::string line, block;
    bool in = false;
    while (std::getline(lines, line)) {
        if (line.rfind(prefix, 0) == 0) {
            in = true;
            block = line.substr(prefix.size());
            continue;
        }
        if (in && line.rfind("  ", 0) == 0) {
            block += " " + line;
            continue;
        }
        if (in) break;
    }
    const std::regex tick("`([^`]+)`");
    for (auto it = std::sregex_iterator(block.begin(), block.end(), tick); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1]);
    return out;
}

} // namespace

class TestRegistry : public QObject {
    Q_OBJECT
private slots:
    void namesAndKeysAreUnique()
    {
        auto unique = [](const std::vector<std::string>& names, const char* what) {
            QVERIFY2(!names.empty(), what);
            QVERIFY2(std::set<std::string>(names.begin(), names.end()).size() == names.size(), what);
        };
        unique(namesOf(groupDescriptors()), "groups");
        unique(namesOf(distributionDescriptors()), "distributions");
        unique(namesOf(featureMapDescriptors()), "feature maps");
        unique(namesOf(kernelDescriptors()), "kernels");
        unique(namesOf(learnerDescriptors()), "learners");
        unique(namesOf(evaluationDescriptors()), "evaluations");
        for (const auto& [what, params] : allParameterLists()) {
            std::vector<std::string> keys;
            for (const ParamDescriptor& p : *params) keys.push_back(p.key);
            QVERIFY2(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size(), what.c_str());
        }
        for (const auto& d : groupDescriptors())
            QVERIFY2(!d.displayName.empty() && !d.doc.empty(), d.name.c_str());
        for (const auto& d : distributionDescriptors())
            QVERIFY2(!d.displayName.empty() && !d.doc.empty() && !d.groups.empty(), d.name.c_str());
    }

    void everyEnumValueHasOneDescriptor()
    {
        for (GroupKind k : kAllGroupKinds) {
            int n = 0;
            for (const auto& d : groupDescriptors()) n += d.kind == k ? 1 : 0;
            QCOMPARE(n, 1);
            QCOMPARE(std::string(toString(k)), groupDescriptor(k).name);
        }
        QCOMPARE(groupDescriptors().size(), kAllGroupKinds.size());
        for (const char* l : {"ridge", "svm", "krr", "blr", "gp"}) QCOMPARE(parseLearner(l).name, std::string(l));
        QCOMPARE(learnerDescriptors().size(), std::size_t(5));
        for (Metric m : {Metric::Accuracy, Metric::Rmse}) QCOMPARE(parseMetric(toString(m)), m);
        for (EvaluationKind e : {EvaluationKind::HoldOut, EvaluationKind::KFold, EvaluationKind::Folds})
            QCOMPARE(evaluationDescriptor(e).name, std::string(toString(e)));
        QCOMPARE(evaluationDescriptors().size(), std::size_t(3));
        QVERIFY_THROWS_EXCEPTION(SpecError, parseLearner("lasso"));
        QVERIFY_THROWS_EXCEPTION(SpecError, parseMetric("mae"));
    }

    void rangesAreConsistent()
    {
        for (const auto& [what, params] : allParameterLists())
            for (const ParamDescriptor& p : *params) {
                const std::string where = what + "." + p.key;
                const char* w = where.c_str();
                QVERIFY2(!p.doc.empty() && !p.label.empty(), w);
                if (p.type == ParamType::Choice) {
                    QVERIFY2(!p.choices.empty(), w);
                    QVERIFY2(std::find(p.choices.begin(), p.choices.end(), p.defaultText) != p.choices.end(), w);
                    continue;
                }
                if (p.type == ParamType::Text) {
                    QVERIFY2(!p.defaultText.empty(), w);
                    continue;
                }
                QVERIFY2(p.minimum < p.maximum, w);
                QVERIFY2(p.accepts(p.defaultValue), w);  // every default is a valid value
                QVERIFY2(p.learnMinimum < p.learnMaximum, w);
                QVERIFY2(p.accepts(p.learnMinimum) && p.accepts(p.learnMaximum), w);  // the slider stays valid
                if (p.logScale) QVERIFY2(p.learnMinimum > 0, w);
                QVERIFY2(!p.learnable || p.sweepable, w);
                if (p.type == ParamType::Integer) {
                    QCOMPARE(p.decimals, 0);
                    QVERIFY2(!p.accepts(p.minimum + 0.5), w);
                }
                QVERIFY2(p.decimals >= 0 && p.decimals <= 12, w);
                // The panels' spin boxes round to `decimals`: the smallest positive step must be valid
                // when the minimum is open, and the slider's lower end must survive the rounding.
                const double step = std::pow(10.0, -p.decimals);
                if (p.minimumOpen) QVERIFY2(p.accepts(p.minimum + step), w);
                if (p.type == ParamType::Real && p.learnMinimum > 0) QVERIFY2(p.learnMinimum >= step * 0.999, w);
                // Outside the valid range the descriptor says why, naming the bound.
                QVERIFY2(!p.violation(std::nan("")).empty(), w);
                if (p.maximum < std::numeric_limits<double>::max()) QVERIFY2(!p.accepts(p.maximum * 2 + 1), w);
                if (p.minimumOpen) QVERIFY2(!p.accepts(p.minimum), w);
            }
    }

    void distributionDefaultsAreAcceptedOnExactlyTheirGroups()
    {
        for (const DistributionDescriptor& d : distributionDescriptors())
            for (GroupKind k : kAllGroupKinds) {
                const auto group = defaultGroup(k);
                const std::string spec = defaultSpec(d, d.appliesTo(k) ? d.parametersOn(k) : d.parameters);
                const std::string where = spec + " on " + group->spec();
                if (d.appliesTo(k)) {
                    std::shared_ptr<const Distribution> dist;
                    try {
                        dist = makeDistribution(spec, *group);
                    } catch (const SpecError& e) {
                        QFAIL(qPrintable(QString::fromStdString(where + ": " + e.what())));
                    }
                    QCOMPARE(dist->dependsOnInput(), d.dependsOnInput);
                    if (k == GroupKind::Affine) continue;  // the product of three deltas
                    QCOMPARE(parseSpec(dist->spec(), "--dist").name, d.name);
                    // Every optional parameter given at its default is accepted too.
                    Spec full = parseSpec(spec, "--dist");
                    for (const ParamDescriptor& p : d.parametersOn(k)) full.params[p.key] = formatNumber(p.defaultValue);
                    QVERIFY2(makeDistribution(formatSpec(full), *group), where.c_str());
                } else {
                    QVERIFY2(!messageOf([&] { makeDistribution(spec, *group); }).empty(), where.c_str());
                }
            }
        // The registry's lists per group are exactly those.
        for (GroupKind k : kAllGroupKinds)
            for (const DistributionDescriptor* d : distributionsFor(k)) QVERIFY(d->appliesTo(k));
        // Each factor of the affine group takes the distributions of that group.
        for (GroupKind f : groupDescriptor(GroupKind::Affine).factors)
            for (const DistributionDescriptor* d : distributionsFor(f)) {
                const std::string spec = std::string(toString(f)) + "=" + defaultSpec(*d, d->parametersOn(f));
                QVERIFY2(makeDistribution(spec, *defaultGroup(GroupKind::Affine)), spec.c_str());
            }
    }

    void distributionParametersShareTheirKeysAcrossGroups()
    {
        for (const DistributionDescriptor& d : distributionDescriptors()) {
            QVERIFY(&d.parametersOn(d.groups.front()) == &distributionParameters(d.name, d.groups.front()));
            for (GroupKind k : d.groups) {
                QCOMPARE(d.parametersOn(k).size(), d.parameters.size());
                for (std::size_t i = 0; i < d.parameters.size(); ++i) QCOMPARE(d.parametersOn(k)[i].key, d.parameters[i].key);
            }
        }
        QVERIFY(distributionParameters("haar", GroupKind::Rotation).empty());
        QVERIFY(distributionParameters("cauchy", GroupKind::Rotation).empty());
        // The bounds the constructors enforce are the descriptors': just inside is accepted, just outside refused.
        for (const DistributionDescriptor& d : distributionDescriptors())
            for (GroupKind k : d.groups)
                for (const ParamDescriptor& p : d.parametersOn(k)) {
                    const auto group = defaultGroup(k);
                    auto specWith = [&](double v) {
                        Spec s = parseSpec(defaultSpec(d, d.parametersOn(k)), "--dist");
                        s.params[p.key] = formatNumber(v);
                        return formatSpec(s);
                    };
                    const double below = p.minimumOpen ? p.minimum : std::nextafter(p.minimum, -INFINITY);
                    const double above = p.maximumOpen ? p.maximum : std::nextafter(p.maximum, INFINITY);
                    const double in = p.minimumOpen ? std::nextafter(p.minimum, INFINITY) : p.minimum;
                    QVERIFY2(makeDistribution(specWith(in), *group), specWith(in).c_str());
                    QVERIFY2(makeDistribution(specWith(p.maximum - (p.maximumOpen ? 1e-9 : 0.0)), *group),
                             specWith(p.maximum).c_str());
                    const std::string low = messageOf([&] { makeDistribution(specWith(below), *group); });
                    const std::string high = messageOf([&] { makeDistribution(specWith(above), *group); });
                    QVERIFY2(low.find(p.violation(below)) != std::string::npos, low.c_str());
                    QVERIFY2(high.find(p.violation(above)) != std::string::npos, high.c_str());
                }
    }

    void groupDefaultsActOnExactlyTheirDataKinds()
    {
        for (const GroupDescriptor& g : groupDescriptors())
            for (DataKind kind : {DataKind::Images, DataKind::Coulomb, DataKind::Vectors}) {
                const Shape shape = shapeFor(kind);
                const auto group = makeGroup(defaultSpec(g), shape, 1);
                QCOMPARE(group->kind(), g.kind);
                QCOMPARE(parseSpec(group->spec(), "--group").name, g.name);
                const std::string where = g.name + " on " + toString(kind);
                const std::string error = messageOf([&] { group->checkShape(kind, shape); });
                QVERIFY2(error.empty() == g.appliesTo(kind, shape), (where + ": " + error).c_str());
            }
        // The size limit of the orthogonal set is a property of its descriptor.
        const GroupDescriptor& o = *findGroup("orthogonal");
        QVERIFY(o.maxDimension > 0);
        QVERIFY(o.appliesTo(DataKind::Images, Shape{1, o.maxDimension, 1}));
        QVERIFY(!o.appliesTo(DataKind::Images, Shape{1, o.maxDimension + 1, 1}));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeGroup("orthogonal:k=1", Shape{1, o.maxDimension + 1, 1}, 0));
        // groupsFor is the registry's filter: digits get the four similarity groups, cyclic and orthogonal.
        std::vector<std::string> images;
        for (const GroupDescriptor* g : groupsFor(DataKind::Images, {28, 28, 1})) images.push_back(g->name);
        QCOMPARE(images, (std::vector<std::string>{"rotation", "translation", "scale", "affine", "cyclic", "orthogonal"}));
        std::vector<std::string> coulomb;
        for (const GroupDescriptor* g : groupsFor(DataKind::Coulomb, {23, 23, 1})) coulomb.push_back(g->name);
        QCOMPARE(coulomb, (std::vector<std::string>{"permutation", "orthogonal"}));
    }

    void featureMapDefaultsAreAccepted()
    {
        Rng rng = makeRng(3, 0);
        std::normal_distribution<float> normal;
        MatrixXfR X(12, 64);
        for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
        FeatureContext c;
        c.kind = DataKind::Images;
        c.shape = {8, 8, 1};
        c.group = makeGroup("rotation");
        c.dist = makeDistribution("vonmises:kappa=1", *c.group);
        c.kernel = BaseKernel::gaussian(8.0);
        for (const FeatureMapDescriptor& m : featureMapDescriptors()) {
            Spec s = parseSpec(defaultSpec(m), "--features");
            for (auto& [key, value] : s.params)
                if (m.parameter(key)->type == ParamType::Integer) value = "4";  // small maps
            const std::string text = m.secondLayer ? "rf:s=4+" + formatSpec(s) : formatSpec(s);
            FeatureContext context = c;
            if (m.name == "sorted") {
                context.kind = DataKind::Coulomb;
                context.shape = {8, 8, 1};
            }
            std::unique_ptr<FeatureMap> map;
            try {
                map = makeFeatureMap(text, context);
                map->fit(X, 1);
            } catch (const SpecError& e) {
                QFAIL(qPrintable(QString::fromStdString(text + ": " + e.what())));
            }
            const std::string written = split(map->spec(), '+').back();
            QCOMPARE(parseSpec(written, "--features").name, m.name);
            // The invariant maps refuse to run without a group; the others run without one.
            FeatureContext plain = context;
            plain.group.reset();
            plain.dist.reset();
            const std::string error = messageOf([&] { makeFeatureMap(text, plain); });
            QVERIFY2(error.empty() != m.invariant, (text + ": " + error).c_str());
        }
    }

    void kernelDefaultsAreAccepted()
    {
        MatrixXfR X = MatrixXfR::Random(10, 4);
        for (const KernelDescriptor& k : kernelDescriptors()) {
            const BaseKernel kernel = makeKernel(defaultSpec(k), X);
            QCOMPARE(parseSpec(kernel.spec(), "--kernel").name, k.name);
        }
    }

    void unknownNamesAndKeysAreAnsweredWithTheRegistry()
    {
        const auto group = makeGroup("rotation");
        auto listsAll = [](const std::string& message, const std::vector<std::string>& names) {
            QVERIFY2(!message.empty(), "no error");
            for (const std::string& n : names) QVERIFY2(message.find(n) != std::string::npos, (message + " lacks " + n).c_str());
        };
        std::vector<std::string> synopses;
        for (const auto& d : groupDescriptors()) synopses.push_back(d.synopsis());
        listsAll(messageOf([] { makeGroup("spiral"); }), synopses);
        synopses.clear();
        for (const auto& d : distributionDescriptors()) synopses.push_back(d.synopsis());
        listsAll(messageOf([&] { makeDistribution("cauchy:gamma=1", *group); }), synopses);
        listsAll(messageOf([] { makeKernel("laplace:sigma=1", MatrixXfR::Random(4, 2)); }), namesOf(kernelDescriptors()));
        FeatureContext c;
        c.shape = {1, 4, 1};
        listsAll(messageOf([&] { makeFeatureMap("wavelets:s=3", c); }), namesOf(featureMapDescriptors()));
        // An unknown key: the message lists the descriptor's keys.
        listsAll(messageOf([&] { makeFeatureMap("gicdf:m=2,r=2,binz=3", c); }), findFeatureMap("gicdf")->keys());
        listsAll(messageOf([&] { makeDistribution("vonmises:kapa=1", *group); }), {"kappa"});
        listsAll(messageOf([] { makeGroup("cyclic:n=4,k=2"); }), {"n"});
        listsAll(messageOf([] { makeKernel("polynomial:degree=2,offset=1", MatrixXfR::Random(4, 2)); }), {"degree", "c"});
        // A missing required key and a word outside a choice are named.
        listsAll(messageOf([&] { makeFeatureMap("irf:s=4", c); }), {"irf", "r="});
        listsAll(messageOf([&] { makeFeatureMap("rf:s=4,form=sine", c); }), {"form", "cos", "complex", "sine"});
        listsAll(messageOf([] { makeKernel("gaussian", MatrixXfR::Random(4, 2)); }), {"sigma", "median"});
        // TrainConfig::validate speaks the registry too.
        TrainConfig config;
        config.learner = "lasso";
        listsAll(messageOf([&] { config.validate(); }), namesOf(learnerDescriptors()));
        config = TrainConfig{};
        config.eval = "loo";
        listsAll(messageOf([&] { config.validate(); }), {"holdout:FRAC", "kfold:K", "folds"});
        config.eval = "holdout:1.5";
        listsAll(messageOf([&] { config.validate(); }), {"holdout:FRAC", "< 1"});
        config = TrainConfig{};
        config.group = "rotation";
        config.dist = "vonmises:kappa=1";
        config.grid = {{"kapa", {1.0}}};
        listsAll(messageOf([&] { config.validate(); }), {"kapa", "kappa"});
        config.grid = {{"kappa", {-1.0}}};
        listsAll(messageOf([&] { config.validate(); }), {"kappa", ">= 0", "-1"});
        config.grid = {{"lambda", {0.0}}};
        listsAll(messageOf([&] { config.validate(); }), {"lambda", "> 0"});
        config.grid = {{"C", {1.0}}};
        listsAll(messageOf([&] { config.validate(); }), {"C", "ridge"});
    }

    void cliContractNamesAreRegistered()
    {
        const std::string cli = readFile(std::string(ORBIT_SOURCE_DIR) + "/docs/cli.md");
        QVERIFY2(!cli.empty(), "docs/cli.md is missing");
        struct Line {
            const char* prefix;
            std::function<const SpecDescriptor*(const std::string&)> find;
        };
        const std::vector<Line> lines = {
            {"- `--group`:", [](const std::string& n) -> const SpecDescriptor* { return findGroup(n); }},
            {"- `--dist`:", [](const std::string& n) -> const SpecDescriptor* { return findDistribution(n); }},
            {"- `--kernel`:", [](const std::string& n) -> const SpecDescriptor* { return findKernel(n); }},
            {"- `--features`:",
             [](const std::string& n) -> const SpecDescriptor* {
                 // exact:r=R is kept apart from the maps (only the kernel learners take it).
                 return n == exactKernelDescriptor().name ? &exactKernelDescriptor() : findFeatureMap(n);
             }},
        };
        int checked = 0;
        for (const Line& line : lines) {
            const auto specs = contractSpecs(cli, line.prefix);
            QVERIFY2(!specs.empty(), line.prefix);
            for (std::string text : specs) {
                if (text.rfind("--", 0) == 0 || text.find('=') < text.find(':')) continue;  // --dist affine example
                if (std::string(line.prefix) == "- `--dist`:" && findGroup(text)) continue;  // "For `affine`, ..."
                if (text.rfind("...+", 0) == 0) text = text.substr(4);
                const std::string name = text.substr(0, text.find(':'));
                const SpecDescriptor* d = line.find(name);
                QVERIFY2(d, (std::string(line.prefix) + " " + name + " is not in the registry").c_str());
                // Every key the contract writes is one of the descriptor's.
                if (text.find(':') != std::string::npos)
                    for (const std::string& part : split(text.substr(text.find(':') + 1), ',')) {
                        const std::string key = part.substr(0, part.find('='));
                        QVERIFY2(d->parameter(key), (text + ": " + key).c_str());
                    }
                ++checked;
            }
        }
        QVERIFY(checked >= 20);
        // The train row: learners and evaluations.
        std::smatch m;
        QVERIFY(std::regex_search(cli, m, std::regex("--learner ([a-z\\\\|]+)")));
        for (std::string name : split(m[1], '|')) {
            if (!name.empty() && name.back() == '\\') name.pop_back();
            QVERIFY2(findLearner(name), name.c_str());
        }
        QVERIFY(std::regex_search(cli, m, std::regex("--eval ([a-zA-Z:\\\\|]+)")));
        for (std::string e : split(m[1], '|')) {
            if (!e.empty() && e.back() == '\\') e.pop_back();
            QVERIFY2(findEvaluation(e.substr(0, e.find(':'))), e.c_str());
        }
    }

    void helpTextsListTheRegistry()
    {
        const auto features = orbittest::runCli({"features", "--help"});
        QCOMPARE(features.status, 0);
        for (const auto& m : featureMapDescriptors()) {
            QVERIFY2(features.out.find(m.synopsis(true)) != std::string::npos, m.synopsis(true).c_str());
            for (const ParamDescriptor& p : m.parameters)
                QVERIFY2(features.out.find("      " + p.key) != std::string::npos, (m.name + "." + p.key).c_str());
        }
        for (const auto& k : kernelDescriptors()) QVERIFY(features.out.find(k.synopsis(true)) != std::string::npos);
        const auto sample = orbittest::runCli({"sample", "--help"});
        for (const auto& g : groupDescriptors()) QVERIFY2(sample.out.find(g.synopsis(true)) != std::string::npos, g.name.c_str());
        for (const auto& d : distributionDescriptors()) {
            QVERIFY2(sample.out.find(d.synopsis(true)) != std::string::npos, d.name.c_str());
            QVERIFY2(sample.out.find(d.doc.substr(0, 20)) != std::string::npos, d.name.c_str());
        }
        // The κ range in the help is the descriptor's (the GUI used to cap it at 1000).
        QVERIFY(sample.out.find(distributionParameters("vonmises", GroupKind::Rotation).front().rangeText()) !=
                std::string::npos);
        const auto train = orbittest::runCli({"train", "--help"});
        for (const auto& l : learnerDescriptors()) QVERIFY2(train.out.find("  " + l.name) != std::string::npos, l.name.c_str());
        for (const auto& e : evaluationDescriptors()) QVERIFY2(train.out.find(e.synopsis()) != std::string::npos, e.name.c_str());
    }

    void specsRoundTripForRandomValidValues()
    {
        Rng rng = makeRng(2024, 0);
        for (int round = 0; round < 200; ++round) {
            std::vector<std::pair<const SpecDescriptor*, const std::vector<ParamDescriptor>*>> all;
            for (const auto& d : groupDescriptors()) all.push_back({&d, &d.parameters});
            for (const auto& d : distributionDescriptors())
                for (GroupKind k : d.groups) all.push_back({&d, &d.parametersOn(k)});
            for (const auto& d : featureMapDescriptors()) all.push_back({&d, &d.parameters});
            for (const auto& d : kernelDescriptors()) all.push_back({&d, &d.parameters});
            for (const auto& [d, params] : all) {
                const Spec s = randomSpec(*d, *params, rng);
                const std::string text = formatSpec(s);
                const Spec back = parseSpec(text, "--x");
                QCOMPARE(back.name, s.name);
                QCOMPARE(back.params, s.params);
                checkSpecKeys(back, *params, d->alternatives);  // what the parsers accept
                for (const ParamDescriptor& p : *params)
                    if (back.has(p.key) && p.type == ParamType::Real) QVERIFY(p.accepts(*parseDouble(back.params.at(p.key))));
            }
            // Distributions: the object's own spec() writes the same numbers, bit for bit.
            for (const auto& d : distributionDescriptors())
                for (GroupKind k : d.groups) {
                    if (k == GroupKind::Affine) continue;
                    const Spec s = randomSpec(d, d.parametersOn(k), rng);
                    const auto dist = makeDistribution(formatSpec(s), *defaultGroup(k));
                    const Spec written = parseSpec(dist->spec(), "--dist");
                    QCOMPARE(written.name, s.name);
                    for (const auto& [key, value] : s.params)
                        QCOMPARE(*parseDouble(written.params.at(key)), *parseDouble(value));
                }
            // Evaluations.
            for (const EvaluationDescriptor& e : evaluationDescriptors()) {
                Evaluation ev;
                ev.kind = e.id;
                if (e.id == EvaluationKind::HoldOut) ev.fraction = randomValue(e.parameters.front(), rng);
                if (e.id == EvaluationKind::KFold) ev.folds = static_cast<int>(randomValue(e.parameters.front(), rng));
                QCOMPARE(parseEvaluation(formatEvaluation(ev)), ev);
            }
        }
        for (const char* bad : {"holdout", "holdout:0", "holdout:1", "kfold:1", "kfold:2.5", "folds:3", "loo", ""})
            QVERIFY_THROWS_EXCEPTION(SpecError, parseEvaluation(bad));
    }

    void learnerDefaultsAreValidAxisValues()
    {
        for (const LearnerDescriptor& l : learnerDescriptors()) {
            QCOMPARE(l.parameters.empty(), l.defaultAxis.empty());
            for (double v : l.defaultAxis) QVERIFY(l.parameters.front().accepts(v));
            TrainConfig c;
            c.learner = l.name;
            c.validate();
            const auto grid = defaultGrid(c);
            if (!l.parameters.empty()) {
                QCOMPARE(grid.back().name, l.axis());
                QCOMPARE(grid.back().values, l.defaultAxis);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestRegistry)
#include "test_registry.moc"
