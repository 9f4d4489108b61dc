#pragma once
// Data panel: open a dataset (through the load worker), its summary, and a browsable thumbnail
// grid; the selected item becomes the input of the Orbits panel. A failed load shows an inline
// error and keeps the previous dataset.
#include "widgets/Panel.hpp"

#include "orbit/data/Dataset.hpp"

#include <memory>

class QLabel;
class QListView;
class QProgressBar;
class QSlider;

namespace orbitui {

class LabState;
class TaskRunner;
class ThumbnailModel;

class DataPanel : public Panel {
    Q_OBJECT
public:
    explicit DataPanel(LabState* state, QWidget* parent = nullptr);

    /// Starts loading `path` on the worker; the answer arrives later (loaded / an inline error).
    void open(const QString& path);
    bool isLoading() const;

    QListView* view() const { return view_; }
    ThumbnailModel* model() const { return model_; }
    QString summaryText() const;
    /// The thumbnails' size in pixels (the slider), and setting it (clamped to the slider's range).
    int thumbnailSize() const;
    void setThumbnailSize(int px);
    /// Summary of a dataset as rich text (kind, count, shape, classes or target range).
    static QString summarize(const orbit::Dataset& dataset);

signals:
    /// A dataset from `path` was loaded and installed.
    void loaded(const QString& path);
    /// Loading `path` failed with `message` (the previous dataset is kept).
    void loadFailed(const QString& path, const QString& message);
    /// The user asked for the open dialog.
    void openRequested();

private:
    void showDataset();
    /// Thumbnails of `px` pixels, in grid cells with room for their captions.
    void applyZoom(int px);
    void selectInView(int index);

    LabState* state_;
    TaskRunner* runner_;
    ThumbnailModel* model_;
    QLabel* summary_;
    QListView* view_;
    QProgressBar* progress_;
    QSlider* zoom_;
    QString pendingPath_;
};

} // namespace orbitui
