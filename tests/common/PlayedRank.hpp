#pragma once
// One rank of a job played by this process alone: rank() and size() say which, and nothing ever
// travels (for the parts of a job that each rank decides by itself, such as which rows it reads;
// a test may override what a collective call returns).
#include "orbit/parallel/Ranks.hpp"

namespace orbittest {

class PlayedRank : public orbit::Ranks {
public:
    PlayedRank(int me, int size) : me_(me), size_(size) {}
    int rank() const override { return me_; }
    int size() const override { return size_; }
    void allGatherRows(orbit::MatrixXfR&, const orbit::RowBlocks&) const override {}
    void streamRowsToRoot(const orbit::MatrixXfR&, const orbit::RowBlocks&,
                          const std::function<void(const orbit::MatrixXfR&)>&) const override {}
    void send(const Eigen::MatrixXd&, int) const override {}
    Eigen::MatrixXd receive(int) const override { return {}; }
    void sendText(const std::string&, int) const override {}
    std::string receiveText(int) const override { return {}; }
    void broadcast(Eigen::MatrixXd&, int) const override {}
    double maximum(double v) const override { return v; }

private:
    int me_, size_;
};

} // namespace orbittest
