#include "state/AnalysisSettings.hpp"

#include "orbit/registry/Figures.hpp"

namespace orbitui {

int kernelsDefault(const char* key) { return static_cast<int>(orbit::kernelsFigure().setting(key).defaultValue); }

int approximationDefault(const char* key) { return static_cast<int>(orbit::approximationFigure().setting(key).defaultValue); }

QString kernelsDefaultMethod() { return QString::fromStdString(orbit::kernelsFigure().setting("method").defaultText); }

QString approximationDefaultMethod()
{
    return QString::fromStdString(orbit::approximationFigure().setting("method").defaultText);
}

std::vector<int> approximationDefaultList(const char* key) { return orbit::approximationFigure().defaultList(key); }

double figuresDefaultBandwidth() { return orbit::kernelsFigure().setting("bandwidth").defaultValue; }

} // namespace orbitui
