#include "orbit/parallel/Ranks.hpp"

#include "orbit/parallel/BlockSum.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>

namespace orbit {

void checkBlockRows(long long rows)
{
    if (rows < 1 || rows > kMaxBlockRows)
        throw SpecError("block-rows", "must be between 1 and " + std::to_string(kMaxBlockRows), std::to_string(rows));
}

void Ranks::forRowsOf(const RowBlocks& b, Eigen::Index first, Eigen::Index last, Eigen::Index callRows,
                      const std::function<void(Eigen::Index, Eigen::Index)>& call)
{
    const auto nextMultiple = [](Eigen::Index r, Eigen::Index k) { return (r / k + 1) * k; };
    for (Eigen::Index r = first, e = r; r < last; r = e) {
        e = std::min(last, nextMultiple(r, b.blockRows));
        if (callRows > 0) e = std::min(e, nextMultiple(r, callRows));
        call(r, e);
    }
}

std::vector<Eigen::MatrixXd> Ranks::deal(std::size_t first, std::size_t n,
                                         const std::function<Eigen::MatrixXd(std::size_t)>& task) const
{
    std::vector<int> owners(n);
    for (std::size_t k = 0; k < n; ++k) owners[k] = static_cast<int>((first + k) % static_cast<std::size_t>(size()));
    return dealTo(owners, task);
}

std::vector<Eigen::MatrixXd> Ranks::dealTo(const std::vector<int>& owners,
                                           const std::function<Eigen::MatrixXd(std::size_t)>& task) const
{
    for (int q : owners)
        if (q < 0 || q >= size()) throw ContractError("Ranks::dealTo", "owner " + std::to_string(q) + " of " + std::to_string(size()) + " ranks");
    std::vector<Eigen::MatrixXd> out(owners.size());
    for (std::size_t k = 0; k < owners.size(); ++k)
        if (owners[k] == rank()) out[k] = task(k);
    for (std::size_t k = 0; k < owners.size() && size() > 1; ++k) broadcast(out[k], owners[k]);
    return out;
}

void Ranks::postLower(const Eigen::MatrixXd& M, int to) const
{
    if (M.rows() != M.cols())
        throw ContractError("Ranks::postLower", "a " + std::to_string(M.rows()) + " x " + std::to_string(M.cols()) + " matrix");
    post(packedCarried(M, LeafShape{M.rows()}), to);
}

void Ranks::receiveLower(int from, Eigen::MatrixXd& into) const
{
    Eigen::MatrixXd v = receive(from);
    if (v.size() < 2 || v(0) != v(1))
        throw ContractError("Ranks::receiveLower", "rank " + std::to_string(from) + " sent no lower triangle");
    const LeafShape shape{Eigen::Index(v(0))};
    into = unpackedCarried(std::move(v), shape, std::move(into));
}

std::vector<std::vector<std::size_t>> positionsByBlock(const std::vector<std::size_t>& rows, const RowBlocks& blocks)
{
    std::vector<std::vector<std::size_t>> inBlock(static_cast<std::size_t>(blocks.count()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] >= static_cast<std::size_t>(blocks.rows))
            throw ContractError("positionsByBlock", "row " + std::to_string(rows[k]) + " of " + std::to_string(blocks.rows));
        inBlock[static_cast<std::size_t>(blocks.of(Eigen::Index(rows[k])))].push_back(k);
    }
    for (auto& ks : inBlock) std::sort(ks.begin(), ks.end(), [&](std::size_t a, std::size_t b) { return rows[a] < rows[b]; });
    return inBlock;
}

std::vector<Eigen::MatrixXd> Ranks::allPieces(const Eigen::MatrixXd& mine) const
{
    std::vector<Eigen::MatrixXd> out(static_cast<std::size_t>(size()));
    for (int q = 0; q < size(); ++q) {
        if (q == rank()) out[std::size_t(q)] = mine;
        broadcast(out[std::size_t(q)], q);
    }
    return out;
}

void Ranks::sendMany(const std::vector<const Eigen::MatrixXd*>& Ms, int to) const
{
    Eigen::MatrixXd count(1, 1);
    count(0, 0) = double(Ms.size());
    send(count, to);
    for (const Eigen::MatrixXd* M : Ms) send(*M, to);
}

std::vector<Eigen::MatrixXd> Ranks::receiveMany(int from) const
{
    const auto n = std::size_t(receive(from)(0, 0));
    std::vector<Eigen::MatrixXd> out;
    for (std::size_t k = 0; k < n; ++k) out.push_back(receive(from));
    return out;
}

std::vector<RankTraffic> Ranks::everyRankTraffic() const
{
    const RankTraffic own = traffic();
    Eigen::MatrixXd mine(1, 3);
    mine << double(own.bytesSent), double(own.bytesReceived), own.waitSeconds;  // counts exact below 2^53
    std::vector<RankTraffic> all;
    for (const Eigen::MatrixXd& piece : allPieces(mine))
        all.push_back({static_cast<long long>(piece(0, 0)), static_cast<long long>(piece(0, 1)), piece(0, 2)});
    return all;
}

std::vector<int> contiguousOwners(const std::vector<double>& costs, int ranks, std::size_t first)
{
    if (ranks < 1) throw ContractError("contiguousOwners", "ranks " + std::to_string(ranks));
    const std::vector<Eigen::Index> starts = weightedBlockStarts(costs, ranks);
    std::vector<int> owners(costs.size());
    for (std::size_t i = 0; i < std::size_t(ranks); ++i)
        for (Eigen::Index k = starts[i]; k < starts[i + 1]; ++k) owners[std::size_t(k)] = int((first + i) % std::size_t(ranks));
    return owners;
}

namespace {

class OneProcess final : public Ranks {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void allGatherRows(MatrixXfR&, const RowBlocks&) const override {}
    void streamRowsToRoot(const MatrixXfR& own, const RowBlocks&, const std::function<void(const MatrixXfR&)>& take) const override
    {
        take(own);
    }
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
