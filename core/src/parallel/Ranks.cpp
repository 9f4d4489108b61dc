#include "orbit/parallel/Ranks.hpp"

#include "orbit/util/Error.hpp"

namespace orbit {

void checkBlockRows(long long rows)
{
    if (rows < 1 || rows > kMaxBlockRows)
        throw SpecError("block-rows", "must be between 1 and " + std::to_string(kMaxBlockRows), std::to_string(rows));
}

int Ranks::ownerOf(Eigen::Index block, Eigen::Index blocks) const
{
    for (int q = 0; q < size(); ++q)
        if (block < lastBlock(blocks, q)) return q;
    throw ContractError("Ranks::ownerOf", "block " + std::to_string(block) + " of " + std::to_string(blocks));
}

void Ranks::forOwnRows(const RowBlocks& b, Eigen::Index callRows,
                       const std::function<void(Eigen::Index, Eigen::Index)>& call) const
{
    const auto nextMultiple = [](Eigen::Index r, Eigen::Index k) { return (r / k + 1) * k; };
    const Eigen::Index last = lastRow(b);
    for (Eigen::Index r = firstRow(b), e = r; r < last; r = e) {
        e = std::min(last, nextMultiple(r, b.blockRows));
        if (callRows > 0) e = std::min(e, nextMultiple(r, callRows));
        call(r, e);
    }
}

std::vector<Eigen::MatrixXd> Ranks::deal(std::size_t first, std::size_t n,
                                         const std::function<Eigen::MatrixXd(std::size_t)>& task) const
{
    const std::size_t P = static_cast<std::size_t>(size()), me = static_cast<std::size_t>(rank());
    std::vector<Eigen::MatrixXd> out(n);
    for (std::size_t k = 0; k < n; ++k)
        if ((first + k) % P == me) out[k] = task(k);
    for (std::size_t k = 0; k < n && P > 1; ++k) broadcast(out[k], static_cast<int>((first + k) % P));
    return out;
}

namespace {

class OneProcess final : public Ranks {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void allGatherRows(MatrixXfR&, const RowBlocks&) const override {}
    void gatherRows(MatrixXfR&, const RowBlocks&) const override {}
    void send(const Eigen::MatrixXd&, int to) const override
    {
        throw ContractError("Ranks::send", "no rank " + std::to_string(to) + " in a one-process job");
    }
    Eigen::MatrixXd receive(int from) const override
    {
        throw ContractError("Ranks::receive", "no rank " + std::to_string(from) + " in a one-process job");
    }
    void sendText(const std::string&, int to) const override
    {
        throw ContractError("Ranks::sendText", "no rank " + std::to_string(to) + " in a one-process job");
    }
    std::string receiveText(int from) const override
    {
        throw ContractError("Ranks::receiveText", "no rank " + std::to_string(from) + " in a one-process job");
    }
    void broadcast(Eigen::MatrixXd&, int) const override {}
    double maximum(double value) const override { return value; }
};

} // namespace

const Ranks& oneProcess()
{
    static const OneProcess one;
    return one;
}

} // namespace orbit
