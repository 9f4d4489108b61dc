// What `train` does with its learners' outcomes (TrainingLearners.hpp): scores, and a per-class
// run's columns.
#include "training/TrainingLearners.hpp"

#include "orbit/evaluation/Metrics.hpp"

#include <limits>

namespace orbit::detail {

void takeClassColumns(std::vector<std::vector<Outcome>>& into, std::vector<std::vector<Outcome>>&& from,
                      const std::vector<int>& classes)
{
    if (into.empty()) {
        into = std::move(from);
        return;
    }
    for (std::size_t j = 0; j < into.size(); ++j)
        for (std::size_t l = 0; l < into[j].size(); ++l) {
            Outcome& o = into[j][l];
            const Outcome& n = from[j].at(l);
            if (n.failed) o.failed = true;
            if (o.failed) continue;
            for (int c : classes) o.decisions.col(c) = n.decisions.col(c);
        }
}

double scoreOf(const Dataset& data, const Outcome& o, const Indices& test)
{
    if (o.failed) return data.isClassification() ? -std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::infinity();
    if (data.isClassification()) return accuracy(o.classes, select(data.labels, test));
    return rmse(o.targets, select(data.targets, test));
}

} // namespace orbit::detail
