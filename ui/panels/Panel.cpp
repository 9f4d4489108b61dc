#include "panels/Panel.hpp"

#include <QLabel>
#include <QVBoxLayout>

namespace orbitui {

Panel::Panel(const QString& name, const QString& title, QWidget* parent)
    : QWidget(parent), name_(name), title_(title), error_(new QLabel), content_(new QVBoxLayout)
{
    setObjectName(name);
    error_->setObjectName("errorStrip");
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet("QLabel#errorStrip { background: #b3261e; color: white; padding: 6px 10px;"
                          " border-radius: 3px; font-weight: bold; }");
    error_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(error_);
    layout->addLayout(content_, 1);
    content_->setContentsMargins(0, 0, 0, 0);
}

void Panel::showError(const QString& message)
{
    error_->setText(message);
    error_->setToolTip(message);
    error_->show();
}

void Panel::clearError()
{
    error_->clear();
    error_->hide();
}

bool Panel::hasError() const { return !error_->isHidden(); }
QString Panel::errorText() const { return hasError() ? error_->text() : QString(); }

} // namespace orbitui
