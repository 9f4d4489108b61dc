#include "state/LabState.hpp"

#include <algorithm>

namespace orbitui {

LabState::LabState(QObject* parent) : QObject(parent) {}

bool LabState::suits(const OrbitSettings& s, const orbit::Dataset& dataset)
{
    try {
        buildOrbit(s, dataset.kind, dataset.shape);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::vector<int> LabState::defaultEmbeddingInputs(const orbit::Dataset& d)
{
    const int n = static_cast<int>(d.count());
    if (n == 0)
        return {};
    auto firstOf = [&](int cls) {
        for (int i = 0; i < n; ++i)
            if (d.labels[static_cast<std::size_t>(i)] == cls)
                return i;
        return -1;
    };
    std::vector<int> out;
    if (d.isClassification()) {
        const std::vector<int> wanted = d.numClasses >= 10 ? std::vector<int>{6, 9} : std::vector<int>{0, 1};
        for (int cls : wanted)
            if (const int i = firstOf(cls); i >= 0)
                out.push_back(i);
    }
    if (d.kind == orbit::DataKind::Coulomb && d.charges.size() == static_cast<std::size_t>(n) && n > 1) {
        // The two largest molecules: small ones (LiH, ClO) have orbits of one or two matrices, which
        // shows nothing of what a permutation distribution does.
        std::vector<int> order(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            order[static_cast<std::size_t>(i)] = i;
        std::stable_sort(order.begin(), order.end(), [&d](int a, int b) {
            return d.charges[static_cast<std::size_t>(a)].size() > d.charges[static_cast<std::size_t>(b)].size();
        });
        out = {order[0], order[1]};
    }
    if (out.size() < 2) {  // two inputs from the middle of the file (its first records are often tiny)
        out = {n / 3};
        if (n > 1 && (2 * n) / 3 != n / 3)
            out.push_back((2 * n) / 3);
    }
    return out;
}

void LabState::setDataset(std::shared_ptr<const orbit::Dataset> dataset, const QString& path)
{
    dataset_ = std::move(dataset);
    datasetPath_ = path;
    const int n = dataset_ ? static_cast<int>(dataset_->count()) : 0;
    if (dataset_ && !suits(settings_, *dataset_)) {
        OrbitSettings s = defaultSettingsFor(dataset_->kind);
        s.r = settings_.r;
        s.seed = settings_.seed;
        settings_ = s;
    }
    std::vector<int> embedding = dataset_ ? defaultEmbeddingInputs(*dataset_) : std::vector<int>{};
    int selected = embedding.empty() ? 0 : embedding.front();
    if (pending_) {
        selected = pending_->first;
        if (!pending_->second.empty())
            embedding = pending_->second;
        pending_.reset();
    }
    embedding.erase(std::remove_if(embedding.begin(), embedding.end(), [n](int i) { return i < 0 || i >= n; }),
                    embedding.end());
    selected_ = std::clamp(selected, 0, std::max(0, n - 1));
    embedding_ = embedding;
    emit datasetChanged();
    emit orbitSettingsChanged();
    emit embeddingInputsChanged();
    emit selectionChanged(selected_);
}

void LabState::setSelectedIndex(int index)
{
    const int n = dataset_ ? static_cast<int>(dataset_->count()) : 0;
    index = std::clamp(index, 0, std::max(0, n - 1));
    if (index == selected_)
        return;
    selected_ = index;
    emit selectionChanged(index);
}

void LabState::setOrbitSettings(const OrbitSettings& settings)
{
    if (settings == settings_)
        return;
    const bool otherGroup = settings.group != settings_.group;
    settings_ = settings;
    if (otherGroup)  // per-class distributions belong to the group they were learned on
        settings_.distPerClass.clear();
    emit orbitSettingsChanged();
}

void LabState::setEmbeddingInputs(std::vector<int> inputs)
{
    const int n = dataset_ ? static_cast<int>(dataset_->count()) : 0;
    inputs.erase(std::remove_if(inputs.begin(), inputs.end(), [n](int i) { return i < 0 || i >= n; }), inputs.end());
    if (inputs == embedding_)
        return;
    embedding_ = std::move(inputs);
    emit embeddingInputsChanged();
}

void LabState::setPendingSelection(int selected, std::vector<int> embedding)
{
    pending_ = std::make_pair(selected, std::move(embedding));
}

} // namespace orbitui
