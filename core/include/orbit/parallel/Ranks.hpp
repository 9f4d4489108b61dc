#pragma once
// The processes one computation is spread over: this process alone, or the ranks of an MPI job
// (orbitlab-cli under mpirun; the implementation lives in cli/, so the core never links MPI).
//
// Rows are split into fixed-size blocks (RowBlocks) and every rank owns a contiguous run of whole
// blocks. Everything summed over rows is summed over blocks in one fixed tree (sumOverBlocks), so the
// numbers depend on the block size but never on the number of processes.
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace orbit {

/// The default rows per block (--block-rows): small enough that P ranks get nearly equal shares of
/// whole blocks, large enough that each block's product is an efficient one.
constexpr long long kDefaultBlockRows = 512;
constexpr long long kMaxBlockRows = 1LL << 24;
/// Throws SpecError("block-rows") unless 1 <= rows <= kMaxBlockRows.
void checkBlockRows(long long rows);

/// A fixed partition of `rows` rows into blocks of `blockRows` (the last one shorter).
struct RowBlocks {
    Eigen::Index rows = 0;
    Eigen::Index blockRows = kDefaultBlockRows;

    Eigen::Index count() const { return rows == 0 ? 0 : (rows + blockRows - 1) / blockRows; }
    Eigen::Index begin(Eigen::Index block) const { return std::min(rows, block * blockRows); }
    Eigen::Index end(Eigen::Index block) const { return std::min(rows, (block + 1) * blockRows); }
    /// The block holding row i.
    Eigen::Index of(Eigen::Index row) const { return row / blockRows; }
};

/// The positions k of `rows` (dataset rows in [0, blocks.rows)) grouped by the block holding
/// rows[k], each block's in increasing row order: the order block sums and block-wise predictions
/// visit them. ContractError for a row out of range.
std::vector<std::vector<std::size_t>> positionsByBlock(const std::vector<std::size_t>& rows, const RowBlocks& blocks);

/// What one rank's calls to MPI moved and how long they kept it waiting, counted where Ranks calls
/// MPI (payload bytes, the headers of the project's own messages included, MPI's envelopes not):
/// - a send, post or receive counts its message once, as sent by the sender and received by the
///   receiver;
/// - a collective counts what this rank contributes as sent and what it obtains from the others as
///   received, once each however the library moves it: a broadcast the buffer sent by its root and
///   received by every other rank, an all-reduce the buffer each way on every rank, an all-gather
///   this rank's own piece sent and the others' pieces received. With one rank, nothing.
/// So the sum of bytesSent over the ranks equals the sum of bytesReceived at P = 2 (each rank's sent
/// equals the other's received), whatever the transport.
/// waitSeconds is the wall time spent inside blocking calls: receives, waits for posted sends,
/// collectives, and blocking sends (a large one waits for its receiver). Posting and testing is
/// not counted.
struct RankTraffic {
    long long bytesSent = 0;
    long long bytesReceived = 0;
    double waitSeconds = 0.0;
};

/// The processes of one job. Collective calls (all but rank(), size() and ownership) must be made by
/// every rank in the same order. A failing rank ends the whole job (the MPI implementation aborts
/// it), so no collective waits for a rank that is gone.
class Ranks {
public:
    virtual ~Ranks() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    bool isRoot() const { return rank() == 0; }

    /// Blocks [first, last) of `blocks` blocks that rank q owns: contiguous runs, in rank order, of
    /// floor or ceil(blocks / size) blocks each.
    Eigen::Index firstBlock(Eigen::Index blocks, int q) const { return blocks * q / size(); }
    Eigen::Index lastBlock(Eigen::Index blocks, int q) const { return blocks * (q + 1) / size(); }
    /// Rows [first, last) this rank owns.
    Eigen::Index firstRow(const RowBlocks& b) const { return b.begin(firstBlock(b.count(), rank())); }
    Eigen::Index lastRow(const RowBlocks& b) const { return b.begin(lastBlock(b.count(), rank())); }
    /// Calls call(begin, end) for this rank's rows of `b`, in order, in runs cut at every block
    /// boundary and, when callRows > 0, at every multiple of callRows. A row's bits may depend on
    /// where it sits in its call (Eigen's product kernels treat a call's last rows apart): these cuts
    /// are the same at any number of ranks, so the rows are too.
    void forOwnRows(const RowBlocks& b, Eigen::Index callRows,
                    const std::function<void(Eigen::Index begin, Eigen::Index end)>& call) const
    {
        forRowsOf(b, firstRow(b), lastRow(b), callRows, call);
    }
    /// The same for rows [first, last) (block boundaries, e.g. another partition's run of blocks).
    static void forRowsOf(const RowBlocks& b, Eigen::Index first, Eigen::Index last, Eigen::Index callRows,
                          const std::function<void(Eigen::Index begin, Eigen::Index end)>& call);

    /// M has b.rows rows, this rank's own rows filled; on return every rank holds every row (each
    /// owner's rows, unchanged).
    virtual void allGatherRows(MatrixXfR& M, const RowBlocks& b) const = 0;
    /// Every rank's rows, in row order, through the root's `take`: `own` holds this rank's rows of
    /// `b` (firstRow to lastRow). The root passes its own to take, then each other rank's in pieces
    /// of a block (at most kStreamBytes); the others send theirs. No rank ever holds more than its own rows and
    /// one piece (features --out writes the file as the rows come). Collective.
    virtual void streamRowsToRoot(const MatrixXfR& own, const RowBlocks& b,
                                  const std::function<void(const MatrixXfR& rows)>& take) const = 0;
    static constexpr long long kStreamBytes = 64LL << 20;
    /// Point to point, for the block-order sums: M's size travels with it. A message received takes
    /// a buffer of its size from the computation's MatrixPool when there is one, and a posted one goes
    /// there once it has left, so the sums' 64 MB messages do not pay fresh pages every time.
    virtual void send(const Eigen::MatrixXd& M, int to) const = 0;
    virtual Eigen::MatrixXd receive(int from) const = 0;
    /// send that returns before M has arrived: this rank keeps M until the message has left, and goes
    /// on computing meanwhile (`receive` takes it; messages from one rank to another arrive in the
    /// order sent, posted or not). The default sends at once.
    virtual void post(Eigen::MatrixXd M, int to) const { send(M, to); }
    /// Lets posted sends and expected messages progress, and returns once at most `travelling` of
    /// the posted sends have not yet left (the oldest leave first). waitPosted(0) before anything
    /// that needs them all delivered.
    virtual void waitPosted(std::size_t travelling = 0) const { (void)travelling; }
    /// The next `count` messages from rank `from` that this rank will `receive` may arrive before
    /// that call, while this rank computes (each waitPosted moves them on); `receive` takes them in
    /// the order sent. Every message expected must be received. The default does nothing.
    virtual void expect(int from, std::size_t count) const
    {
        (void)from;
        (void)count;
    }
    /// post for the lower triangle of the square M (on and below the diagonal, column by column):
    /// the triangle alone travels, half of M's bytes. M stays where it is, and must stay unchanged
    /// until waitPosted says the message has left; a transport that can read the columns in place
    /// copies nothing into a message buffer. The default posts the triangle packed (packedCarried).
    /// Messages from one rank to another arrive in the order posted, as with post.
    virtual void postLower(const Eigen::MatrixXd& M, int to) const;
    /// What rank `from`'s next postLower sent, written on and below the diagonal of `into` (resized
    /// to n x n unless it is that size; its upper triangle is unspecified).
    virtual void receiveLower(int from, Eigen::MatrixXd& into) const;
    /// Several matrices as one message (a rank's subtrees of one block sum: one message per
    /// optimiser step of `learn`, not one or more per subtree). receiveMany takes them, in order.
    /// The default sends them one by one.
    virtual void sendMany(const std::vector<const Eigen::MatrixXd*>& Ms, int to) const;
    virtual std::vector<Eigen::MatrixXd> receiveMany(int from) const;
    /// Text point to point (results of whole settings of an experiment).
    virtual void sendText(const std::string& text, int to) const = 0;
    virtual std::string receiveText(int from) const = 0;
    /// Rank `from`'s M to every rank (size included).
    virtual void broadcast(Eigen::MatrixXd& M, int from = 0) const = 0;
    /// Every rank's `mine`, in rank order, on every rank (sizes may differ). Collective.
    std::vector<Eigen::MatrixXd> allPieces(const Eigen::MatrixXd& mine) const;
    /// The largest of every rank's `value` (for stage timings: the slowest rank sets the pace).
    virtual double maximum(double value) const = 0;

    /// What this rank's calls to MPI have moved and waited for so far (RankTraffic); all zero for one
    /// process.
    virtual RankTraffic traffic() const { return {}; }
    /// Every rank's traffic() as it stood when the rank entered this call, in rank order (the
    /// messages of this gathering itself are not counted). Collective.
    std::vector<RankTraffic> everyRankTraffic() const;

    /// Tasks that do not split over rows (one Cholesky per lambda, one SVM per C, one evidence
    /// maximisation), dealt out: task k of n runs only on rank (first + k) mod size(), and its
    /// result reaches every rank from there. Each rank gets back all n results, the same bits as
    /// one process computing them all. Collective.
    std::vector<Eigen::MatrixXd> deal(std::size_t first, std::size_t n,
                                      const std::function<Eigen::MatrixXd(std::size_t)>& task) const;
    /// The same with the owner of each task given (owners[k] in [0, size())), e.g. contiguousOwners.
    std::vector<Eigen::MatrixXd> dealTo(const std::vector<int>& owners,
                                        const std::function<Eigen::MatrixXd(std::size_t)>& task) const;
};

/// Owners for tasks of the given costs on `ranks` ranks in contiguous runs, in task order, of about
/// equal cost (weightedBlockStarts): run i goes to rank (first + i) mod ranks. Tasks that share
/// work (the values of one fit, which need that fit's equations) thus stay on as few ranks as
/// possible; the loads differ by at most about one task's cost.
std::vector<int> contiguousOwners(const std::vector<double>& costs, int ranks, std::size_t first);

/// This process alone (rank 0 of 1).
const Ranks& oneProcess();

} // namespace orbit
