#include "state/Lessons.hpp"

#include "state/TrainingSettings.hpp"

#include "orbit/registry/Registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbitui {

namespace {

/// A step that changes one field: its name (as sessionDifferences names it) and the setter.
LessonStep step(const char* title, const char* text, const char* field, std::function<void(SessionState&)> change)
{
    return {QString::fromUtf8(title), QString::fromUtf8(text), QString::fromUtf8(field), std::move(change)};
}
LessonStep first(const char* title, const char* text) { return {QString::fromUtf8(title), QString::fromUtf8(text), {}, {}}; }

LessonStep kappa(const char* title, const char* text, double v)
{
    return step(title, text, "orbit.distribution.kappa", [v](SessionState& s) { s.orbit.dist.setValue("kappa", v); });
}
LessonStep sigma(const char* title, const char* text, double v)
{
    return step(title, text, "orbit.distribution.sigma", [v](SessionState& s) { s.orbit.dist.setValue("sigma", v); });
}
LessonStep panel(const char* title, const char* text, const char* name)
{
    return step(title, text, "panel", [name](SessionState& s) { s.panel = QString::fromUtf8(name); });
}

/// The digits (OpenCV's 5000, 500 of each class in order): 3000 is the first 6, 4500 the first 9.
constexpr int firstSix = 3000;
constexpr int firstNine = 4500;

SessionState digits(const char* panelName, double k, int r)
{
    SessionState s;
    s.selectedIndex = firstSix;
    s.embeddingInputs = {firstSix, firstNine};
    s.orbit.group = "rotation";
    s.orbit.dist = DistributionParams::of("vonmises", orbit::GroupKind::Rotation, {{"kappa", k}});
    s.orbit.r = r;
    s.panel = QString::fromUtf8(panelName);
    return s;
}

SessionState molecules(const char* panelName, double sig, int r)
{
    SessionState s;
    s.selectedIndex = 85;  // trans-butane (G2): atoms of close row norms to swap
    s.embeddingInputs = {85, 86};  // trans-butane and isobutane
    s.orbit.group = "permutation";
    s.orbit.dist = DistributionParams::of("noisysort", orbit::GroupKind::Permutation, {{"sigma", sig}});
    s.orbit.r = r;
    s.training.localityAxis = "sigma";
    s.training.locality = {0.1, 1.0, 10.0};
    s.training.learn = {"sigma"};
    s.panel = QString::fromUtf8(panelName);
    return s;
}

std::vector<Lesson> buildTable()
{
    std::vector<Lesson> table;

    // 1. What an orbit is.
    {
        Lesson l{.name = "orbit", .title = QString::fromUtf8("1. What an orbit is"), .dataFile = "digits.png",
                 .start = digits("orbits", 4.0, 16), .steps = {}};
        l.steps = {
            first("An orbit",
                  "<p>The <b>orbit</b> of an input x under a group G is the set of all its transformed copies, "
                  "O<sub>x</sub> = {g x : g ∈ G}. For the rotation group it holds every rotated copy of the digit.</p>"
                  "<p>The gallery shows r = 16 copies g<sub>k</sub> x of the selected 6, with angles drawn from "
                  "the von Mises density q(θ) ∝ exp(κ cos θ), here κ = 4: the copies lean left and right of the upright "
                  "digit, most by less than about 45°.</p>"),
            panel("The distribution over the group",
                  "<p>The Group &amp; distribution panel draws q(θ) ∝ exp(κ cos θ) over the histogram of the "
                  "angles drawn. At κ = 4 the mass sits around θ = 0, the identity: this is what makes the "
                  "invariance <i>local</i>.</p>",
                  "group"),
            kappa("A wider distribution",
                  "<p>κ = 1: the density flattens and the histogram spreads over larger angles; even θ = ±π "
                  "(upside down) is drawn now and then. Mind the sign: the peak is at θ = 0 because the exponent "
                  "is +κ cos θ.</p>",
                  1.0),
            kappa("κ = 0: the Haar measure",
                  "<p>κ = 0 makes q uniform on the circle: the normalised Haar measure. Every rotation is "
                  "equally likely, upside down included.</p>",
                  0.0),
            panel("The whole orbit",
                  "<p>Back in Orbits, at κ = 0 the copies turn all the way round, and some turned 6s look like "
                  "9s. The embedding is a 2-D picture (PCA) of the orbit samples of a 6 (blue) and a 9 (red): at "
                  "κ = 0 the two colours mix. The probe below stays near 1 for the invariant features at every "
                  "angle, while plain random features drop.</p>",
                  "orbits"),
            step("More copies",
                 "<p>r = 64 samples from the same q: the gallery and the embedding fill in, and the two orbits "
                 "trace rings through the same region. r is how many group samples approximate the integral over "
                 "the orbit; q decides which part of the orbit counts.</p>",
                 "orbit.r", [](SessionState& s) { s.orbit.r = 64; }),
        };
        table.push_back(std::move(l));
    }

    // 2. Locality: κ and the 6/9 problem.
    {
        Lesson l{.name = "locality", .title = QString::fromUtf8("2. Locality: κ and the 6/9 problem"),
                 .dataFile = "digits.png", .start = digits("orbits", 0.0, 64), .steps = {}};
        l.steps = {
            first("A 6 and a 9",
                  "<p>A 9 is much like a 6 turned by 180°. With κ = 0 (uniform over all angles) the orbit of the 6 "
                  "contains that turned copy, so the two orbits run through the same region: in the embedding the "
                  "clouds of the 6 and the 9 overlap.</p>"
                  "<p>A fully rotation-invariant kernel (the Haar integration kernel) cannot tell them apart "
                  "(Raj et al. 2017, §2.1).</p>"),
            kappa("κ = 1",
                  "<p>q(θ) ∝ exp(κ cos θ) with κ = 1 prefers small angles, but copies turned by 90° or more are "
                  "still common: the red cloud gathers, yet blue points still run through it.</p>",
                  1.0),
            kappa("κ = 4",
                  "<p>κ = 4: each orbit keeps mostly to a neighbourhood of its input, and the red and blue "
                  "clouds separate (a few blue points still come near the red). Small tilts of either digit are "
                  "still treated as the same digit.</p>",
                  4.0),
            kappa("κ = 16",
                  "<p>κ = 16: the copies hardly move. As κ grows, q tends to a point mass at the identity and the "
                  "invariant kernel to the base kernel: no invariance left. Locality is a trade-off between these "
                  "ends.</p>",
                  16.0),
            panel("Predict first: which digits want a narrow window?",
                  "<p>So far one κ served every digit. But a 0, a 1 or an 8 loses little when it is turned (it "
                  "stays much the same shape), while a 6 turned far enough looks like a 9. The evidence can learn "
                  "one window <i>per class</i>: each digit's one-hot column gets its own κ and its own "
                  "precisions, from the same random templates.</p>"
                  "<p><b>Before you go on, write down your guess:</b> which digits will get a narrow window (a "
                  "large κ, little rotation allowed), and which a wide one?</p>"
                  "<p>This step opens the Training panel, where <b>Learn locality</b> sits under the grid.</p>",
                  "training"),
            step("Reveal: every digit's own window",
                 "<p><b>Per class</b> (beside the Learn locality button, under the settings on the left) is now "
                 "ticked. Press <b>Learn locality</b> (Ctrl+L): a bar per digit fills in as its class converges, the "
                 "95% window of its own von Mises density in degrees, with a dashed line at the single κ learned for "
                 "all. Compare with your guess.</p>"
                 "<p>Our run of this step (these 1000 digits, every input with its own orbit samples, from κ = 16; "
                 "docs/results.md) gave every window between about 35° and 90°, none near the full circle a round 0 "
                 "might seem to allow: the 6 the narrowest (34°; turned further it would pass for a 9), then the 4 "
                 "and the 8 (37°); the 3 (88°) and the 0 (69°) the widest. With another seed (other digits and "
                 "templates) the order within that band changes: the 5 and the 8 can be as narrow as the 6 or "
                 "narrower. The per-class evidence is only a few nats per class above one κ's, what the extra parameters buy by "
                 "themselves, and the held-out accuracy moves by a digit or two: on upright digits the classes "
                 "differ little. The evidence weighs how well each class's own column is explained, not how "
                 "symmetric the digit looks. Click a bar: the Group panel shows that digit's density and the Orbits "
                 "panel one of its samples. Below, the confusion matrices of one κ (A) and a κ per class (B) show "
                 "where the held-out errors went.</p>",
                 "training.learn_per_class", [](SessionState& s) { s.training.learnPerClass = true; }),
        };
        table.push_back(std::move(l));
    }

    // 3. The invariant kernel against the base kernel.
    {
        SessionState start = digits("kernels", 0.0, 16);
        start.kernels.n = 100;
        start.kernels.s = 200;
        Lesson l{.name = "kernels", .title = QString::fromUtf8("3. The invariant kernel and the base kernel"),
                 .dataFile = "digits.png", .start = start, .steps = {}};
        l.steps = {
            first("Two kernels",
                  "<p>The base kernel k is Gaussian on the pixels. The invariant kernel averages it over the "
                  "orbits of both inputs:</p>"
                  "<p align=center>k<sub>qG</sub>(x, y) = ∫∫ k(g x, h y) q(g) q(h) dg dh</p>"
                  "<p>The heatmaps show both for 100 digits ordered by class. At κ = 0 k<sub>qG</sub> is "
                  "unchanged when either input is rotated: it compares whole orbits.</p>"),
            kappa("κ = 4",
                  "<p>κ = 4: q keeps to small angles, and k<sub>qG</sub> moves towards the base kernel: in the "
                  "invariant heatmap the diagonal and the blocks of the 0s and the 1s come back, which were "
                  "washed out at κ = 0.</p>",
                  4.0),
            kappa("κ = 0.2: the rotated-MNIST setting",
                  "<p>κ = 0.2 is what LGIKA chose by cross-validation for rotated MNIST (digits turned by any "
                  "angle). It is close to uniform, and the heatmaps look much as they did at κ = 0. Note the "
                  "relative error of the random-feature map in the summary line.</p>",
                  0.2),
            step("More random features",
                 "<p>The third heatmap approximates k<sub>qG</sub> with s invariant random features "
                 "ψ(x)ᵀψ(y); the fourth is the difference. With s = 1000 instead of 200 the difference's colour "
                 "scale narrows, yet the relative error in the summary line hardly moves: s is not the only "
                 "source of error. Lesson 4 measures the error against s.</p>",
                 "kernels.s", [](SessionState& s) { s.kernels.s = 1000; }),
        };
        table.push_back(std::move(l));
    }

    // 4. How many features: LGIKA Figure 1 (drawn there on QM7; here on the bundled G2 molecules).
    {
        SessionState start = molecules("approximation", 1.0, 70);
        start.approximation.n = 100;
        start.approximation.method = "rf";
        start.approximation.sList = {10, 20, 50, 100, 200, 500, 1000};
        start.approximation.rList = {20};
        start.approximation.refR = 70;
        start.approximation.repeats = 3;
        Lesson l{.name = "features", .title = QString::fromUtf8("4. How many features (LGIKA Figure 1)"),
                 .dataFile = "g2.extxyz", .start = start, .steps = {}};
        l.steps = {
            first("Approximation error against s",
                  "<p>Invariant random features approximate k<sub>qG</sub> by ψ(x)ᵀψ(y) with s random "
                  "templates and r group samples each. The chart shows the normalised error "
                  "‖K − ΨΨᵀ‖ / ‖K‖ against s, the reference K from 70 noisy-sort permutations, as in LGIKA "
                  "Figure 1.</p>"
                  "<p>LGIKA drew it on QM7; here the bundled G2 molecules stand in. With QM7 (not in the "
                  "repository: ../shared/data/qm7/qm7.extxyz, or quantum-machine.org), open it with File ▸ "
                  "Open data and the lesson's settings stay.</p>"),
            step("r = 20 and r = 40",
                 "<p>Figure 1's two settings: 20 and 40 group samples, one curve each. Both fall by almost a "
                 "factor of ten from s = 10 to s = 500 and then level off; the two r stay close together, so "
                 "here s matters far more than r. (With 3 repeats the curves are noisy.)</p>",
                 "approximation.r_list", [](SessionState& s) { s.approximation.rList = {20, 40}; }),
            step("Nyström",
                 "<p>The same error for invariant Nyström features: s landmarks (templates) instead of random "
                 "frequencies, k(x, x′) ≈ K<sub>Z,x</sub>ᵀ K<sub>Z,Z</sub><sup>+</sup> K<sub>Z,x′</sub>. It takes at most "
                 "n = 100 landmarks, so its curves stop at s = 100. Mind the axis, which now spans 0.01 to 0.1: "
                 "at s = 100 Nyström's error is far below that of the random features.</p>",
                 "approximation.method", [](SessionState& s) { s.approximation.method = "nystrom"; }),
        };
        table.push_back(std::move(l));
    }

    // 5. Permutation invariance of molecules: noisy sort on G2.
    {
        Lesson l{.name = "molecules", .title = QString::fromUtf8("5. Molecules: permutations and noisy sort"),
                 .dataFile = "g2.extxyz", .start = molecules("data", 0.0, 16), .steps = {}};
        l.steps = {
            first("Coulomb matrices",
                  "<p>Each molecule is a Coulomb matrix: C<sub>ii</sub> = ½ Z<sub>i</sub><sup>2.4</sup>, "
                  "C<sub>ij</sub> = Z<sub>i</sub>Z<sub>j</sub> / |R<sub>i</sub> − R<sub>j</sub>|. Numbering "
                  "the atoms differently permutes its rows and columns together; the energy stays the same. The "
                  "group is the permutations of the atoms.</p>"),
            panel("Sorted: σ = 0",
                  "<p>Noisy sort adds noise of spread σ to the row norms and sorts by them. At σ = 0 every sample "
                  "is the same sorted matrix (the sorted Coulomb matrix of Montavon et al.): the gallery repeats "
                  "one picture, and in the embedding each molecule's orbit is a single point.</p>",
                  "orbits"),
            sigma("σ = 1: LGIKA's QM7 setting",
                  "<p>σ = 1: atoms whose row norms are close swap places from copy to copy, those far apart do "
                  "not, so q depends on the molecule itself. In the embedding trans-butane's copies (blue) fall "
                  "into several clusters while isobutane's (red) stay close together.</p>",
                  1.0),
            sigma("σ = 10",
                  "<p>σ = 10 mixes atoms whose norms are far apart too: the copies differ more from each other, "
                  "and the embedding's axes stretch to hold the wider orbits.</p>",
                  10.0),
            panel("Kernels of molecules",
                  "<p>100 molecules ordered by energy (kcal/mol): the base kernel on the Coulomb matrices as "
                  "they are, and k<sub>qG</sub> averaged over their noisy-sort orbits. Each orbit sample is sorted "
                  "by noisy row norms, so numbering the atoms differently leaves k<sub>qG</sub> unchanged in "
                  "distribution; the base kernel has no such guarantee.</p>",
                  "kernels"),
        };
        table.push_back(std::move(l));
    }

    // 6. Letting the evidence choose the locality.
    {
        SessionState start = digits("training", 0.2, 16);
        start.training.preset = "irf";
        start.training.s = 500;
        start.training.r = 16;
        start.training.learner = "blr";
        start.training.eval = "holdout";
        start.training.holdoutFraction = 0.2;
        start.training.subset = 1000;
        start.training.localityAxis = "kappa";
        start.training.locality = {0.03, 0.3, 3.0, 30.0};
        start.training.learn = {"kappa"};
        Lesson l{.name = "evidence", .title = QString::fromUtf8("6. Letting the evidence choose the locality"),
                 .dataFile = "digits.png", .start = start, .steps = {}};
        l.steps = {
            first("A grid over κ",
                  "<p>Which κ? Bayesian linear regression on the invariant features gives a marginal likelihood "
                  "(the evidence) for every κ. Press <b>Run</b> (Ctrl+R): the chart shows validation accuracy "
                  "and log evidence for κ = 0.03, 0.3, 3 and 30. On these upright digits both rise towards the "
                  "large κ: little rotation invariance is wanted.</p>"),
            kappa("Learn κ from κ = 1",
                  "<p>Instead of a grid, let the evidence be climbed. κ is set to 1 first, so that you can watch it "
                  "move. Press <b>Learn locality</b> (Ctrl+L): a scan (grey points) evaluates the evidence with the "
                  "same random numbers at every κ, then the optimiser (blue) climbs from the best point of the scan "
                  "and stops when it predicts no gain; the grey curve joins everything it evaluated. "
                  "On these upright digits the evidence peaks at a large κ, between 10 and 100.</p>",
                  1.0),
            panel("The learned distribution",
                  "<p>After a learn the Group panel shows the distribution it chose (Undo, in the Training panel, "
                  "puts κ = 1 back). A learned κ in the tens is a narrow bump: the standard deviation of θ is "
                  "about 1/√κ, roughly ±12° at κ = 24. The data, not a grid, chose how local the invariance "
                  "is.</p>",
                  "group"),
        };
        table.push_back(std::move(l));
    }
    return table;
}

[[noreturn]] void refuse(const Lesson& l, int step, const std::string& what)
{
    throw std::logic_error("lesson " + l.name.toStdString() + " step " + std::to_string(step + 1) + ": " + what);
}

/// A parameter of the registry's distribution `name` on `groupName` with the value in `p`.
void checkDistribution(const Lesson& l, int step, const std::string& groupName, const DistributionParams& p)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(groupName);
    if (!g)
        refuse(l, step, "no group " + groupName + " in the registry");
    const orbit::DistributionDescriptor* d = orbit::findDistribution(p.name);
    if (!d)
        refuse(l, step, "no distribution " + p.name + " in the registry");
    if (!d->appliesTo(g->kind))
        refuse(l, step, "distribution " + p.name + " does not apply to group " + groupName);
    for (const orbit::ParamDescriptor& param : d->parametersOn(g->kind))
        if (!param.accepts(p.value(param.key)))
            refuse(l, step, p.name + "." + param.key + " " + param.violation(p.value(param.key)));
}

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

/// Every name of the session is one the registry (or the panels) has.
void checkSession(const Lesson& l, int step, const SessionState& s)
{
    if (!orbit::findGroup(s.orbit.group))
        refuse(l, step, "no group " + s.orbit.group + " in the registry");
    for (const std::string& factor : s.orbit.factors())
        checkDistribution(l, step, factor, s.orbit.factor(factor));
    if (s.orbit.r < 1)
        refuse(l, step, "r must be >= 1");
    const TrainingSettings& t = s.training;
    if (!contains(featurePresets(), t.preset))
        refuse(l, step, "no feature map " + t.preset + " in the registry");
    if (!orbit::findLearner(t.learner))
        refuse(l, step, "no learner " + t.learner + " in the registry");
    if (!orbit::findEvaluation(t.eval))
        refuse(l, step, "no evaluation " + t.eval + " in the registry");
    const std::vector<std::string> axes = localityAxes(s.orbit);
    if (!t.localityAxis.empty() && !contains(axes, t.localityAxis))
        refuse(l, step, "sweep axis " + t.localityAxis + " is not a parameter of " + s.orbit.distSpec());
    for (const std::string& p : t.learn)
        if (!contains(axes, p))
            refuse(l, step, "learn " + p + " is not a parameter of " + s.orbit.distSpec());
    for (const QString& m : {s.kernels.method, s.approximation.method})
        if (!orbit::findFeatureMap(m.toStdString()))
            refuse(l, step, "no feature map " + m.toStdString() + " in the registry");
    if (!lessonPanelNames().contains(s.panel))
        refuse(l, step, "no panel " + s.panel.toStdString());
}

} // namespace

void checkLesson(const Lesson& l)
{
    if (l.steps.empty() || l.steps.front().change)
        refuse(l, 0, "the first step loads the lesson and changes nothing");
    SessionState s = l.start;
    checkSession(l, 0, s);
    for (int i = 1; i < static_cast<int>(l.steps.size()); ++i) {
        const LessonStep& st = l.steps[static_cast<std::size_t>(i)];
        if (!st.change)
            refuse(l, i, "a step after the first must change a setting");
        SessionState next = s;
        st.change(next);
        const QStringList diff = sessionDifferences(s, next);
        if (diff != QStringList{st.field})
            refuse(l, i, "changes {" + diff.join(", ").toStdString() + "}, not exactly " + st.field.toStdString());
        checkSession(l, i, next);
        s = next;
    }
}

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> table = [] {
        std::vector<Lesson> t = buildTable();
        for (const Lesson& l : t)
            checkLesson(l);
        return t;
    }();
    return table;
}

int findLesson(const QString& nameOrNumber)
{
    const auto& t = lessons();
    bool number = false;
    const int n = nameOrNumber.toInt(&number);
    if (number)
        return n >= 1 && n <= static_cast<int>(t.size()) ? n - 1 : -1;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (t[i].name.compare(nameOrNumber, Qt::CaseInsensitive) == 0)
            return static_cast<int>(i);
    return -1;
}

SessionState sessionAt(const Lesson& lesson, int step, const QString& dataPath)
{
    SessionState s = lesson.start;
    s.dataPath = dataPath;
    for (int i = 1; i <= step && i < static_cast<int>(lesson.steps.size()); ++i)
        lesson.steps[static_cast<std::size_t>(i)].change(s);
    return s;
}

const QStringList& lessonPanelNames()
{
    static const QStringList names{"data", "group", "orbits", "kernels", "approximation", "training", "predict"};
    return names;
}

} // namespace orbitui
