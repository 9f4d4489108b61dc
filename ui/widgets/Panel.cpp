#include "widgets/Panel.hpp"

#include "render/SafeText.hpp"
#include "state/workers/PassScheduler.hpp"
#include "widgets/ExportActions.hpp"
#include "widgets/FieldHighlight.hpp"

#include <QDir>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace orbitui {

Panel::Panel(const QString& name, const QString& title, QWidget* parent)
    : QWidget(parent), name_(name), title_(title), strip_(new QFrame), error_(new QLabel), action_(new QPushButton),
      content_(new QVBoxLayout), fields_(new FieldHighlight(this)), keptDraws_(new QObject(this))
{
    setObjectName(name);
    strip_->setObjectName("errorStrip");
    strip_->setStyleSheet("QFrame#errorStrip { background: #b3261e; border-radius: 3px; }"
                          " QLabel#errorText { color: white; padding: 6px 10px; font-weight: bold; }");
    error_->setObjectName("errorText");
    // Messages quote file names and values: never interpreted as rich text (a name such as
    // "<img src=...>" is shown as written).
    error_->setTextFormat(Qt::PlainText);
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    action_->setObjectName("errorAction");
    action_->hide();
    connect(action_, &QPushButton::clicked, this, [this] {
        if (actionHandler_)
            actionHandler_();
    });
    auto* stripLayout = new QHBoxLayout(strip_);
    stripLayout->setContentsMargins(0, 0, 6, 0);
    stripLayout->addWidget(error_, 1);
    stripLayout->addWidget(action_, 0, Qt::AlignVCenter);
    strip_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(strip_);
    layout->addLayout(content_, 1);
    content_->setContentsMargins(0, 0, 0, 0);
}

void Panel::showError(const QString& message) { showError(message, QString(), {}); }

void Panel::showError(const QString& message, const QString& actionText, std::function<void()> action)
{
    error_->setText(safeText(message));
    actionHandler_ = std::move(action);
    action_->setText(actionText);
    action_->setVisible(!actionText.isEmpty() && actionHandler_);
    strip_->show();
}

void Panel::showFieldError(const QString& message, const QString& field, const QString& detail, bool focus)
{
    showError(message);
    fields_->clear();
    if (!field.isEmpty())
        fields_->mark(field, detail, focus);
}

void Panel::clearError()
{
    fields_->clear();
    error_->clear();
    actionHandler_ = {};
    action_->hide();
    strip_->hide();
}

bool Panel::hasError() const { return !strip_->isHidden(); }
QString Panel::errorText() const { return hasError() ? error_->text() : QString(); }
QString Panel::errorActionText() const { return hasError() && !action_->isHidden() ? action_->text() : QString(); }
void Panel::triggerErrorAction()
{
    if (hasError() && !action_->isHidden())
        action_->click();
}

QStringList Panel::exportCharts(const QString&, QString*) const { return {}; }

bool Panel::writeChartCsv(const QString& dir, const QString& name, const QString& csv, QStringList* written,
                          QString* error)
{
    const qsizetype header = csv.indexOf('\n');
    if (header < 0 || header + 1 >= csv.size())  // no data rows: nothing drawn
        return true;
    const QString path = QDir(dir).filePath(name);
    if (!writeTextFile(path, csv)) {
        if (error)
            *error = tr("cannot write %1").arg(safePath(path));
        return false;
    }
    if (written)
        written->append(path);
    return true;
}

void Panel::appendWidget(QWidget* widget, int stretch) { content_->addWidget(widget, stretch); }

bool Panel::isIdle() const { return PassScheduler::instance()->isIdle(this); }

bool Panel::isSweepFrameDone() const
{
    return isVisible() ? isIdle() : PassScheduler::instance()->isIdle(this, keptDraws_);
}

bool Panel::hasKeptDraws() const { return PassScheduler::instance()->isPending(keptDraws_); }

void Panel::whenInSight(int slot, std::function<void()> draw)
{
    PassScheduler* scheduler = PassScheduler::instance();
    if (isVisible()) {
        scheduler->cancel(keptDraws_, slot);
        draw();
        return;
    }
    // Due once the results have stopped coming for the delay (each one restarts it): during a played
    // sweep a hidden panel draws once in four delays, not every frame. Never later than that: a
    // steady stream of results (a Cancel pressed again and again answers each time) must not keep
    // the panel from ever being idle.
    scheduler->post(keptDraws_, slot, std::move(draw), keptDrawDelayMs_, PassScheduler::Due::Restart,
                    4 * keptDrawDelayMs_);
}

void Panel::dropKept(int slot) { PassScheduler::instance()->cancel(keptDraws_, slot); }

void Panel::drawKept() const { PassScheduler::instance()->runNow(keptDraws_); }

void Panel::showEvent(QShowEvent* event)
{
    drawKept();
    QWidget::showEvent(event);
}

} // namespace orbitui
