// libFuzzer target for the session-file parser of the GUI (orbitui::loadSession, which reads the
// file, parses the JSON and calls sessionFromJson). Properties: a malformed file yields nullopt and
// a non-empty error message that is safe text (no control or bidi character, whatever the file
// held), never an exception or a crash; a session that loads survives toJson -> sessionFromJson
// unchanged, with the panels' parts and any object it does not know.
#include "FuzzInput.hpp"

#include "state/AnalysisSettings.hpp"
#include "state/PredictSettings.hpp"
#include "state/Session.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include <QString>

#include <cstdlib>
#include <iostream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The window's panels' parts, read as the window reads them (their panel lines register them there).
    static const bool registered = [] {
        for (const orbitui::SessionPartCodec& c : {orbitui::sessionPartCodec<orbitui::KernelsSettings>(),
                                                   orbitui::sessionPartCodec<orbitui::ApproximationSettings>(),
                                                   orbitui::sessionPartCodec<orbitui::PredictSettings>()})
            orbitui::registerSessionPart(c);
        return true;
    }();
    (void)registered;
    static orbitfuzz::TempInput input(".orbitlab");
    const QString path = QString::fromStdString(input.write(data, size));
    try {
        QString error;
        const std::optional<orbitui::SessionState> s = orbitui::loadSession(path, &error);
        if (!s) {
            if (error.isEmpty()) {
                std::cerr << "loadSession failed without an error message\n";
                std::abort();
            }
            if (!orbit::isSafeText(error.toStdString())) {
                std::cerr << "loadSession error is not safe text: " << orbit::safeText(error.toStdString(), 400) << "\n";
                std::abort();
            }
            return 0;
        }
        if (!(orbitui::sessionFromJson(orbitui::toJson(*s)) == *s)) {
            std::cerr << "session does not survive toJson -> sessionFromJson\n";
            std::abort();
        }
    } catch (const std::exception& e) {
        std::cerr << "unexpected exception: " << e.what() << "\n";
        std::abort();
    }
    return 0;
}
