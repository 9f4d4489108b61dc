#pragma once
// A sweep's export for slides, as the user asks for it: format, what to record, where.

namespace orbitui {

class SweepControl;

/// The dialog of the sweep's "Export…" button: format, what to record, where; runs a SweepRecorder
/// and reports the result in the panel's status bar (or the sweep's message row for an error).
void showSweepExportDialog(SweepControl* sweep);

} // namespace orbitui
