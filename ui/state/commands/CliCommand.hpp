#pragma once
// Copy as command: the orbitlab-cli line that recomputes what a panel shows, from the session the
// panel draws (the same seed, the same subset, the same specs), quoted for a POSIX shell.
#include "state/Session.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace orbitui {

/// What a panel's figure depends on beyond the session.
struct CommandContext {
    /// Samples in the loaded dataset (the panels cap N at it); 0: not known, nothing is capped.
    std::size_t samples = 0;
    /// Group panel, affine group: the factor whose density is drawn; empty: the first factor.
    std::string densityFactor;
    /// Training panel: the Learned locality tab is what is shown (learn instead of train).
    bool learn = false;
};

/// One orbitlab-cli invocation: the words after the program name.
struct CliCommand {
    std::vector<std::string> args;
    /// The command runs spread over the ranks of an MPI job (features, train, learn, experiment).
    bool scalesOut = false;
};

/// The command that recomputes what `panel` shows for session `s`, writing its files into the
/// current folder under the names of the panel's "Data CSV…" / "Matrix CSV…" buttons:
///   data → info; group → density (density.csv); orbits → embed (orbit-embedding.csv);
///   kernels → kernel --features (kernel-invariant.csv, kernel-approximation.csv, kernel-base.csv,
///   kernel-difference.csv); approximation → approx-error (approximation.csv);
///   training → train (makeTrainConfig's config, the seeded subset), or learn with context.learn.
/// The numbers equal the panel's for the same seed (tests/ui/window/shell/test_share_command checks it). Throws
/// orbit::SpecError naming what is missing (field "data" without a dataset path, "learn" without a
/// parameter to learn, "panel" for an unknown panel).
/// The panel is found among the registered ones (state/PanelRegistry.hpp), whose entries hold the
/// builders below.
CliCommand panelCommand(const SessionState& s, const std::string& panel, const CommandContext& context = {});
/// Each panel's builder of panelCommand, as the window registers it (the words above).
CliCommand dataCommand(const SessionState& s, const CommandContext& context = {});
CliCommand groupCommand(const SessionState& s, const CommandContext& context = {});
CliCommand orbitsCommand(const SessionState& s, const CommandContext& context = {});
CliCommand kernelsCommand(const SessionState& s, const CommandContext& context = {});
CliCommand approximationCommand(const SessionState& s, const CommandContext& context = {});
/// train, or learn with context.learn.
CliCommand trainingCommand(const SessionState& s, const CommandContext& context = {});

/// Copy as Python: the lines that redo the Training panel's run of session `s` with the Python
/// module orbitlab (orbit::trainingAsPython on makeTrainConfig's config and the panel's seeded
/// subset of the data file, `n` only when it is smaller than context.samples). The same numbers as
/// the panel (python/tests checks them). Throws orbit::SpecError("data") without a data file.
std::string trainingPython(const SessionState& s, const CommandContext& context = {});

/// The Predict view's sweep: `predict --model M.npz --data FILE --index I` (a row; `--input IMAGE`
/// for an image file or the drawing, predict-input.png, that the view's export writes; a molecule's
/// Swap and Jitter as `--swap I,J --jitter SIGMA`) `--sweep
/// NAME:FROM:TO:COUNT --out predict-sweep.csv`, the CSV the view's export writes. M is model B's
/// file, else A's; SpecError("model") when both models are of training runs (they have no file).
CliCommand predictCommand(const SessionState& s);
/// Copy as Python on the Predict view: orbitlab.load_model, the input (orbitlab.move_atoms for a
/// molecule's Swap and Jitter), orbitlab.sweep over the chart's range, and one printed line per value:
/// t and the scores (or the value) as Python's repr, the same doubles as the view's.
std::string predictPython(const SessionState& s);

/// `word` as one word of a POSIX shell: unchanged when it holds only [A-Za-z0-9_@%+=:,./-] (and does
/// not start with '='), else in single quotes with each ' written '\''. The empty word is ''.
std::string shellQuote(const std::string& word);
/// The words quoted and joined by single spaces.
std::string shellLine(const std::vector<std::string>& words);
/// The full line: `program` and the command's words, preceded by `mpirun -np P` when `processes`
/// > 0 and the command scales out (a command that runs in one process is returned without it).
std::string commandLine(const CliCommand& command, const std::string& program = "orbitlab-cli", int processes = 0);

} // namespace orbitui
