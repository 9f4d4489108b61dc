#pragma once
// The shared state the panels observe: the dataset, the selected input, the orbit settings and
// the inputs of the orbit embedding. Panels change it through setters; it announces changes.
#include "state/OrbitSettings.hpp"

#include "orbit/data/Dataset.hpp"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace orbitui {

class LabState : public QObject {
    Q_OBJECT
public:
    explicit LabState(QObject* parent = nullptr);

    std::shared_ptr<const orbit::Dataset> dataset() const { return dataset_; }
    QString datasetPath() const { return datasetPath_; }
    /// Installs a loaded dataset. Keeps the orbit settings when they suit its kind, else switches
    /// to defaultSettingsFor(kind); applies a pending selection (setPendingSelection) or picks the
    /// defaults (defaultEmbeddingInputs).
    void setDataset(std::shared_ptr<const orbit::Dataset> dataset, const QString& path);

    int selectedIndex() const { return selected_; }
    void setSelectedIndex(int index);

    const OrbitSettings& orbitSettings() const { return settings_; }
    void setOrbitSettings(const OrbitSettings& settings);

    const std::vector<int>& embeddingInputs() const { return embedding_; }
    void setEmbeddingInputs(std::vector<int> inputs);

    /// Selection and embedding inputs to apply when the next dataset arrives (sessions).
    void setPendingSelection(int selected, std::vector<int> embedding);

    /// Suggested embedding inputs: the first 6 and the first 9 for ten classes (the 6-versus-9
    /// problem), else the first samples of the first two classes, else samples n/3 and 2n/3.
    static std::vector<int> defaultEmbeddingInputs(const orbit::Dataset& dataset);
    /// Settings valid for this dataset (true when `s` can act on it).
    static bool suits(const OrbitSettings& s, const orbit::Dataset& dataset);

signals:
    void datasetChanged();
    void selectionChanged(int index);
    void orbitSettingsChanged();
    void embeddingInputsChanged();

private:
    std::shared_ptr<const orbit::Dataset> dataset_;
    QString datasetPath_;
    int selected_ = 0;
    OrbitSettings settings_;
    std::vector<int> embedding_;
    std::optional<std::pair<int, std::vector<int>>> pending_;
};

} // namespace orbitui
