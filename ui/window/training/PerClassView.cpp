#include "window/training/PerClassView.hpp"

#include "render/ParameterLabels.hpp"

#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace orbitui {

PerClassView::PerClassView(QWidget* parent) : QWidget(parent)
{
    chart_ = new ChartBox(new QChart, "per-class-locality");
    chart_->setObjectName("perClassChart");
    chart_->setToolTip(tr("Every class's own locality, learned by its own evidence: a bar fills in as its class "
                          "converges. For rotations, the bar is the window holding 95% of the class's own density, in "
                          "degrees; the line is the single locality learned for every class. Click a bar to see that "
                          "class's distribution in the Group panel and one of its samples in the Orbits panel."));
    globalMatrix_ = new ConfusionMatrixView("confusion-one-locality");
    globalMatrix_->setObjectName("globalConfusion");
    perClassMatrix_ = new ConfusionMatrixView("confusion-per-class");
    perClassMatrix_->setObjectName("perClassConfusion");
    matrices_ = new QWidget;
    auto* row = new QHBoxLayout(matrices_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(globalMatrix_, 1);
    row->addWidget(perClassMatrix_, 1);
    matricesNote_ = new QLabel;
    matricesNote_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_, 3);
    layout->addWidget(matricesNote_);
    layout->addWidget(matrices_, 2);
    matrices_->hide();
    matricesNote_->hide();
}

void PerClassView::begin(const QStringList& classes, const std::string& parameter, bool degrees)
{
    classes_ = classes;
    parameter_ = parameter;
    degrees_ = degrees;
    filled_.clear();
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    set_ = new QBarSet(degrees ? tr("95% window of the class") : axisLabel(parameter));
    set_->setColor(QColor(0x3b, 0x6e, 0xb4));
    for (int i = 0; i < classes.size(); ++i)
        *set_ << 0.0;
    bars_ = new QBarSeries;
    bars_->append(set_);
    bars_->setBarWidth(0.7);
    chart->addSeries(bars_);
    global_ = new QLineSeries;
    global_->setName(tr("one locality for every class"));
    QPen pen(QColor(0xc0, 0x39, 0x2b));
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(2.0);
    global_->setPen(pen);
    chart->addSeries(global_);
    auto* xAxis = new QBarCategoryAxis;
    xAxis->append(classes);
    xAxis->setTitleText(tr("class"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    bars_->attachAxis(xAxis);
    auto* lineX = new QValueAxis;  // the line spans the categories: bar i sits at i
    lineX->setRange(-0.5, classes.size() - 0.5);
    lineX->setVisible(false);
    chart->addAxis(lineX, Qt::AlignBottom);
    global_->attachAxis(lineX);
    yAxis_ = new QValueAxis;
    yAxis_->setTitleText(degrees ? tr("window (degrees)") : axisLabel(parameter));
    chart->addAxis(yAxis_, Qt::AlignLeft);
    bars_->attachAxis(yAxis_);
    global_->attachAxis(yAxis_);
    setChartTitle(chart, tr("Per-class locality: 0 of %1 classes learned").arg(classes.size()));
    connect(bars_, &QBarSeries::clicked, this, [this](int index, QBarSet*) { emit classClicked(index); });
    rescale();
    matrices_->hide();
    matricesNote_->hide();
}

double PerClassView::barValue(const orbit::ClassLocality& learned) const
{
    if (degrees_ && learned.windowDegrees)
        return *learned.windowDegrees;
    const auto it = learned.learned.find(parameter_);
    return it == learned.learned.end() ? 0.0 : it->second;
}

double PerClassView::barHeight(int label) const
{
    return set_ && label >= 0 && label < set_->count() ? set_->at(label) : 0.0;
}

void PerClassView::addClass(const orbit::ClassLocality& learned)
{
    if (!set_ || learned.label < 0 || learned.label >= set_->count())
        return;
    set_->replace(learned.label, barValue(learned));
    filled_.push_back(learned.label);
    setChartTitle(chart_->chart(), tr("Per-class locality: %1 of %2 classes learned").arg(filled_.size()).arg(classes_.size()));
    rescale();
}

double perClassAxisTop(double hi, bool degrees)
{
    if (!degrees)
        return std::max(hi, 1.0) * 1.1;
    const double top = 1.1 * std::max(hi, 1.0);
    const double step = top <= 60.0 ? 10.0 : 30.0;
    return std::min(360.0, std::ceil(top / step) * step);
}

double PerClassView::axisTop() const { return yAxis_ ? yAxis_->max() : 0.0; }

void PerClassView::rescale()
{
    if (!yAxis_)
        return;
    double hi = 0.0;
    for (int i = 0; set_ && i < set_->count(); ++i)
        hi = std::max(hi, set_->at(i));
    for (const QPointF& p : global_ ? global_->points() : QList<QPointF>())
        hi = std::max(hi, p.y());
    yAxis_->setRange(0.0, perClassAxisTop(hi, degrees_));
}

void PerClassView::finish(const orbit::PerClassResult& result, const Eigen::MatrixXi& globalConfusion,
                          const Eigen::MatrixXi& perClassConfusion)
{
    orbit::ClassLocality one;  // the single learn, drawn as a class would be
    one.learned = result.global.learned;
    one.windowDegrees = result.globalWindowDegrees;
    const double y = barValue(one);
    global_->replace({QPointF(-0.5, y), QPointF(classes_.size() - 0.5, y)});
    setChartTitle(chart_->chart(), tr("Per-class locality of %1 classes (line: one locality for every class)").arg(classes_.size()));
    rescale();
    if (globalConfusion.size() == 0 || perClassConfusion.size() == 0)
        return;
    const auto accuracy = [](const Eigen::MatrixXi& m) { return double(m.diagonal().sum()) / double(std::max(1, m.sum())); };
    globalMatrix_->setMatrix(globalConfusion, classes_, tr("A: one locality, accuracy %1").arg(accuracy(globalConfusion), 0, 'f', 3));
    perClassMatrix_->setMatrix(perClassConfusion, classes_,
                               tr("B: per class, accuracy %1").arg(accuracy(perClassConfusion), 0, 'f', 3));
    matricesNote_->setText(tr("Held-out rows: A is the single learned locality, B every class with its own."));
    matricesNote_->show();
    matrices_->show();
}

} // namespace orbitui
