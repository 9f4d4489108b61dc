#include "orbit/cli/Processes.hpp"

#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#if ORBIT_WITH_MPI
#include <mpi.h>
#endif

namespace orbit::cli {

#if ORBIT_WITH_MPI
namespace {

/// Messages travel in pieces of at most 2^27 elements (1 GiB of doubles): MPI counts are ints.
constexpr long long kPiece = 1LL << 27;

/// move(at, n) for consecutive pieces [at, at + n) covering [0, count).
template <class Move>
void inPieces(long long count, const Move& move)
{
    for (long long at = 0; at < count; at += kPiece) move(at, int(std::min(kPiece, count - at)));
}

/// Started by mpirun: Open MPI (and PMIx launchers) put the rank in the environment.
bool launchedByMpirun()
{
    return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
}

class MpiRanks final : public Ranks {
public:
    MpiRanks()
    {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }

    void allGatherRows(MatrixXfR& M, const RowBlocks& b) const override { rows(M, b); }
    void streamRowsToRoot(const MatrixXfR& own, const RowBlocks& b, const std::function<void(const MatrixXfR&)>& take) const override
    {
        const long long cols = own.cols();
        if (cols == 0 || cols > std::numeric_limits<int>::max())
            throw ContractError("Ranks::streamRowsToRoot", "a row of " + std::to_string(cols) + " floats");
        requireSize("Ranks::streamRowsToRoot", "own rows", own.rows(), lastRow(b) - firstRow(b));
        const long long pieceRows = std::max(1LL, std::min<long long>(b.blockRows, kStreamBytes / (4 * cols)));
        MPI_Datatype row;
        MPI_Type_contiguous(int(cols), MPI_FLOAT, &row);
        MPI_Type_commit(&row);
        if (rank_ == 0) {
            take(own);
            MatrixXfR piece;
            for (int q = 1; q < size_; ++q) {
                const long long count = b.begin(lastBlock(b.count(), q)) - b.begin(firstBlock(b.count(), q));
                for (long long at = 0; at < count; at += pieceRows) {
                    piece.resize(std::min(pieceRows, count - at), cols);
                    blocking([&] { MPI_Recv(piece.data(), int(piece.rows()), row, q, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
                    traffic_.bytesReceived += 4 * piece.size();
                    take(piece);
                }
            }
        } else {
            for (long long at = 0; at < own.rows(); at += pieceRows) {
                const int n = int(std::min(pieceRows, own.rows() - at));
                blocking([&] { MPI_Send(own.data() + at * cols, n, row, 0, kTag, MPI_COMM_WORLD); });
                traffic_.bytesSent += 4 * n * cols;
            }
        }
        MPI_Type_free(&row);
    }

    void send(const Eigen::MatrixXd& M, int to) const override
    {
        const long long dims[2] = {static_cast<long long>(M.rows()), static_cast<long long>(M.cols())};
        blocking([&] {
            MPI_Send(dims, 2, MPI_LONG_LONG, to, kMatrixTag, MPI_COMM_WORLD);
            inPieces(M.size(), [&](long long at, int n) { MPI_Send(M.data() + at, n, MPI_DOUBLE, to, kMatrixTag, MPI_COMM_WORLD); });
        });
        traffic_.bytesSent += matrixBytes(M.size());
    }

    void post(Eigen::MatrixXd M, int to) const override
    {
        auto& m = *posted_.emplace_back(std::make_unique<Posted>());
        m.M = std::move(M);
        m.dims[0] = m.M.rows();
        m.dims[1] = m.M.cols();
        m.requests.emplace_back();
        MPI_Isend(m.dims, 2, MPI_LONG_LONG, to, kMatrixTag, MPI_COMM_WORLD, &m.requests.back());
        inPieces(m.M.size(), [&](long long at, int n) {
            m.requests.emplace_back();
            MPI_Isend(m.M.data() + at, n, MPI_DOUBLE, to, kMatrixTag, MPI_COMM_WORLD, &m.requests.back());
        });
        traffic_.bytesSent += matrixBytes(m.M.size());
    }

    void waitPosted(std::size_t travelling) const override
    {
        advanceExpected();
        // Testing every one lets Open MPI progress them all (a rendezvous needs the sender's turn).
        for (auto& m : posted_) {
            int done = 0;
            MPI_Testall(int(m->requests.size()), m->requests.data(), &done, MPI_STATUSES_IGNORE);
        }
        while (!posted_.empty()) {
            int done = 0;
            MPI_Testall(int(posted_.front()->requests.size()), posted_.front()->requests.data(), &done, MPI_STATUSES_IGNORE);
            if (!done && posted_.size() <= travelling) break;
            if (!done)
                blocking([&] { MPI_Waitall(int(posted_.front()->requests.size()), posted_.front()->requests.data(), MPI_STATUSES_IGNORE); });
            MatrixPool::give(std::move(posted_.front()->M));  // the next message of this size reuses its pages
            posted_.pop_front();
        }
    }

    Eigen::MatrixXd receive(int from) const override
    {
        if (const auto it = expected_.find(from); it != expected_.end() && (it->second.count > 0 || !it->second.queue.empty())) {
            advanceExpected();  // posts the header's receive if expect() counted it and none is out yet
            std::unique_ptr<Arriving> m = std::move(it->second.queue.front());
            it->second.queue.pop_front();
            blocking([&] {
                if (!m->started) {
                    MPI_Wait(&m->header, MPI_STATUS_IGNORE);
                    startPieces(*m, from);
                }
                MPI_Waitall(int(m->requests.size()), m->requests.data(), MPI_STATUSES_IGNORE);
            });
            traffic_.bytesReceived += matrixBytes(m->M.size());
            return std::move(m->M);
        }
        long long dims[2] = {0, 0};
        blocking([&] { MPI_Recv(dims, 2, MPI_LONG_LONG, from, kMatrixTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
        checkDims(dims, from);
        // A pooled buffer of that size when the computation kept one (the block sums' messages are
        // 64 MB at D = 4000: fresh ones cost their page faults every time).
        Eigen::MatrixXd M = MatrixPool::take(dims[0], dims[1]);
        blocking([&] {
            inPieces(M.size(), [&](long long at, int n) {
                MPI_Recv(M.data() + at, n, MPI_DOUBLE, from, kMatrixTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            });
        });
        traffic_.bytesReceived += matrixBytes(M.size());
        return M;
    }

    void postLower(const Eigen::MatrixXd& M, int to) const override
    {
        if (M.rows() != M.cols())
            throw ContractError("Ranks::postLower", "a " + std::to_string(M.rows()) + " x " + std::to_string(M.cols()) + " matrix");
        auto& m = *posted_.emplace_back(std::make_unique<Posted>());  // M stays the caller's: nothing to give back
        m.dims[0] = m.dims[1] = M.rows();
        m.requests.emplace_back();
        MPI_Isend(m.dims, 2, MPI_LONG_LONG, to, kLowerTag, MPI_COMM_WORLD, &m.requests.back());
        forLowerPieces(M, [&](MPI_Datatype piece) {
            m.requests.emplace_back();
            MPI_Isend(M.data(), 1, piece, to, kLowerTag, MPI_COMM_WORLD, &m.requests.back());
        });
        traffic_.bytesSent += lowerBytes(M.rows());
    }

    void receiveLower(int from, Eigen::MatrixXd& into) const override
    {
        long long dims[2] = {0, 0};
        blocking([&] { MPI_Recv(dims, 2, MPI_LONG_LONG, from, kLowerTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
        if (dims[0] < 0 || dims[0] != dims[1])
            throw ContractError("Ranks::receiveLower", "a lower triangle of " + std::to_string(dims[0]) + " x " +
                                                           std::to_string(dims[1]) + " from rank " + std::to_string(from));
        const auto n = Eigen::Index(dims[0]);
        if (into.rows() != n || into.cols() != n) {
            MatrixPool::give(std::move(into));
            into = MatrixPool::take(n, n);
        }
        blocking([&] {
            forLowerPieces(into, [&](MPI_Datatype piece) {
                MPI_Recv(into.data(), 1, piece, from, kLowerTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            });
        });
        traffic_.bytesReceived += lowerBytes(n);
    }

    void expect(int from, std::size_t count) const override
    {
        if (from < 0 || from >= size_ || from == rank_)
            throw ContractError("Ranks::expect", "rank " + std::to_string(from) + " of " + std::to_string(size_));
        expected_[from].count += count;
        advanceExpected();
    }

    void sendMany(const std::vector<const Eigen::MatrixXd*>& Ms, int to) const override
    {
        // One MPI message: a header of doubles (the count, then each matrix's rows and columns) and
        // the matrices' elements, gathered from where they lie by a struct type (no copy). Past 64 MB,
        // where the receiver's copy out of one buffer would cost more than a message's latency (the
        // dual form's N x N sums), the header alone with the count negated, then the matrices one by
        // one (send).
        long long elements = 0;
        for (const Eigen::MatrixXd* M : Ms) elements += M->size();
        std::vector<double> header{double(Ms.size())};
        for (const Eigen::MatrixXd* M : Ms) {
            header.push_back(double(M->rows()));
            header.push_back(double(M->cols()));
        }
        long long total = static_cast<long long>(header.size()) + elements;
        const bool apart = total > kBundleElements;
        if (apart) {
            header[0] = -header[0];
            total = static_cast<long long>(header.size());
        }
        std::vector<int> lengths;
        std::vector<MPI_Aint> where;
        const auto add = [&](const double* p, long long n) {
            if (n == 0) return;
            MPI_Aint a = 0;
            MPI_Get_address(p, &a);
            lengths.push_back(int(n));
            where.push_back(a);
        };
        add(header.data(), static_cast<long long>(header.size()));
        if (!apart)
            for (const Eigen::MatrixXd* M : Ms) add(M->data(), M->size());
        const std::vector<MPI_Datatype> types(lengths.size(), MPI_DOUBLE);
        MPI_Datatype bundle;
        MPI_Type_create_struct(int(lengths.size()), lengths.data(), where.data(), types.data(), &bundle);
        MPI_Type_commit(&bundle);
        blocking([&] { MPI_Send(MPI_BOTTOM, 1, bundle, to, kManyTag, MPI_COMM_WORLD); });
        MPI_Type_free(&bundle);
        traffic_.bytesSent += 8 * total;
        if (apart)
            for (const Eigen::MatrixXd* M : Ms) send(*M, to);
    }

    std::vector<Eigen::MatrixXd> receiveMany(int from) const override
    {
        MPI_Status status;
        blocking([&] { MPI_Probe(from, kManyTag, MPI_COMM_WORLD, &status); });
        int count = 0;
        MPI_Get_count(&status, MPI_DOUBLE, &count);
        Eigen::MatrixXd all = MatrixPool::take(count, 1);
        blocking([&] { MPI_Recv(all.data(), count, MPI_DOUBLE, from, kManyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
        traffic_.bytesReceived += 8LL * count;
        const auto bad = [&] {
            return ContractError("Ranks::receiveMany", "a message of " + std::to_string(count) + " doubles from rank " +
                                                           std::to_string(from) + " whose header does not match it");
        };
        const double first = count < 1 ? 0.0 : all(0);
        if (count < 1 || !std::isfinite(first) || 1 + 2 * std::abs(first) > count) throw bad();
        const auto n = static_cast<std::size_t>(std::abs(first));
        std::vector<Eigen::MatrixXd> out;
        if (first < 0) {  // the matrices follow one by one
            if (count != 1 + 2 * static_cast<long long>(n)) throw bad();
            MatrixPool::give(std::move(all));
            for (std::size_t k = 0; k < n; ++k) out.push_back(receive(from));
            return out;
        }
        long long at = 1 + 2 * static_cast<long long>(n);
        for (std::size_t k = 0; k < n; ++k) {
            const auto rows = static_cast<Eigen::Index>(all(Eigen::Index(1 + 2 * k)));
            const auto cols = static_cast<Eigen::Index>(all(Eigen::Index(2 + 2 * k)));
            if (rows < 0 || cols < 0 || at + rows * cols > count) throw bad();
            Eigen::MatrixXd M = MatrixPool::take(rows, cols);
            std::copy_n(all.data() + at, rows * cols, M.data());
            at += rows * cols;
            out.push_back(std::move(M));
        }
        if (at != count) throw bad();
        MatrixPool::give(std::move(all));
        return out;
    }

    void sendText(const std::string& text, int to) const override
    {
        const long long size = static_cast<long long>(text.size());
        blocking([&] {
            MPI_Send(&size, 1, MPI_LONG_LONG, to, kTag, MPI_COMM_WORLD);
            inPieces(size, [&](long long at, int n) { MPI_Send(text.data() + at, n, MPI_CHAR, to, kTag, MPI_COMM_WORLD); });
        });
        traffic_.bytesSent += 8 + size;
    }

    std::string receiveText(int from) const override
    {
        long long size = 0;
        blocking([&] { MPI_Recv(&size, 1, MPI_LONG_LONG, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); });
        std::string text(static_cast<std::size_t>(size), '\0');
        blocking([&] {
            inPieces(size, [&](long long at, int n) {
                MPI_Recv(text.data() + at, n, MPI_CHAR, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            });
        });
        traffic_.bytesReceived += 8 + size;
        return text;
    }

    void broadcast(Eigen::MatrixXd& M, int from) const override
    {
        long long dims[2] = {static_cast<long long>(M.rows()), static_cast<long long>(M.cols())};
        blocking([&] { MPI_Bcast(dims, 2, MPI_LONG_LONG, from, MPI_COMM_WORLD); });
        if (rank_ != from) M.resize(dims[0], dims[1]);
        blocking([&] {
            inPieces(M.size(), [&](long long at, int n) { MPI_Bcast(M.data() + at, n, MPI_DOUBLE, from, MPI_COMM_WORLD); });
        });
        if (size_ > 1) (rank_ == from ? traffic_.bytesSent : traffic_.bytesReceived) += matrixBytes(M.size());
    }

    double maximum(double value) const override
    {
        double out = value;
        blocking([&] { MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD); });
        if (size_ > 1) {
            traffic_.bytesSent += 8;  // one double each way
            traffic_.bytesReceived += 8;
        }
        return out;
    }

    RankTraffic traffic() const override { return traffic_; }

private:
    static constexpr int kTag = 17;       ///< rows and text
    static constexpr int kManyTag = 18;   ///< sendMany's one-message bundles
    static constexpr int kMatrixTag = 19; ///< send, post and receive: a header (rows, columns), then the pieces
    static constexpr int kLowerTag = 20;  ///< postLower and receiveLower: a header (n, n), then the columns' tails
    static constexpr long long kBundleElements = 1LL << 23;  ///< 64 MB of doubles

    /// The lower triangle of the n x n M as MPI types over M's own memory, each a run of columns'
    /// tails (column j from row j down) of at most kPiece elements: call(type) for each in column
    /// order, the type freed after (MPI keeps it for the operations started with it).
    template <class Call>
    static void forLowerPieces(const Eigen::MatrixXd& M, const Call& call)
    {
        const Eigen::Index n = M.rows();
        std::vector<int> lengths;
        std::vector<MPI_Aint> where;
        long long elements = 0;
        const auto flush = [&] {
            if (lengths.empty()) return;
            MPI_Datatype piece;
            MPI_Type_create_hindexed(int(lengths.size()), lengths.data(), where.data(), MPI_DOUBLE, &piece);
            MPI_Type_commit(&piece);
            call(piece);
            MPI_Type_free(&piece);
            lengths.clear();
            where.clear();
            elements = 0;
        };
        for (Eigen::Index j = 0; j < n; ++j) {
            if (elements + (n - j) > kPiece) flush();
            lengths.push_back(int(n - j));
            where.push_back(MPI_Aint(8 * (j * n + j)));  // bytes from M.data()
            elements += n - j;
        }
        flush();
    }
    /// The bytes of a lower triangle's message: its header (two long longs), then n (n + 1) / 2 doubles.
    static long long lowerBytes(long long n) { return 2 * 8 + 8 * (n * (n + 1) / 2); }

    /// A posted send: the message's dimensions and elements stay here until every piece has left.
    struct Posted {
        long long dims[2] = {0, 0};
        Eigen::MatrixXd M;
        std::vector<MPI_Request> requests;
    };
    mutable std::deque<std::unique_ptr<Posted>> posted_;

    /// An expected message on its way in: its header's receive, then (started) its pieces'.
    struct Arriving {
        long long dims[2] = {0, 0};
        MPI_Request header = MPI_REQUEST_NULL;
        bool started = false;
        Eigen::MatrixXd M;
        std::vector<MPI_Request> requests;
    };
    /// The messages expected from one rank: `count` not yet under way, then those in `queue`, in
    /// the order sent. At most the last of the queue waits for its header, so every receive is
    /// posted in the order the messages come (MPI matches them in that order).
    struct Expected {
        std::size_t count = 0;
        std::deque<std::unique_ptr<Arriving>> queue;
    };
    mutable std::map<int, Expected> expected_;

    /// Moves the expected messages on: a header received starts its pieces' receives into a pooled
    /// buffer, and the next expected message's header receive is posted. Testing lets Open MPI
    /// progress them (over TCP a message moves only while both ranks are inside MPI).
    void advanceExpected() const
    {
        for (auto& [q, e] : expected_) {
            for (;;) {
                if (e.queue.empty() || e.queue.back()->started) {
                    if (e.count == 0) break;
                    --e.count;
                    Arriving& m = *e.queue.emplace_back(std::make_unique<Arriving>());
                    MPI_Irecv(m.dims, 2, MPI_LONG_LONG, q, kMatrixTag, MPI_COMM_WORLD, &m.header);
                }
                Arriving& m = *e.queue.back();
                int done = 0;
                MPI_Test(&m.header, &done, MPI_STATUS_IGNORE);
                if (!done) break;
                startPieces(m, q);
            }
            for (auto& m : e.queue)
                if (m->started && !m->requests.empty()) {
                    int done = 0;
                    MPI_Testall(int(m->requests.size()), m->requests.data(), &done, MPI_STATUSES_IGNORE);
                }
        }
    }

    /// m's header is in: the receives of its pieces, into a buffer of the computation's pool.
    void startPieces(Arriving& m, int from) const
    {
        checkDims(m.dims, from);
        m.M = MatrixPool::take(m.dims[0], m.dims[1]);
        inPieces(m.M.size(), [&](long long at, int n) {
            m.requests.emplace_back();
            MPI_Irecv(m.M.data() + at, n, MPI_DOUBLE, from, kMatrixTag, MPI_COMM_WORLD, &m.requests.back());
        });
        m.started = true;
    }

    static void checkDims(const long long dims[2], int from)
    {
        if (dims[0] < 0 || dims[1] < 0)
            throw ContractError("Ranks::receive", "a matrix of " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
                                                      " from rank " + std::to_string(from));
    }
    mutable RankTraffic traffic_;

    /// call(), a blocking MPI call or several, its wall time added to the traffic's waitSeconds.
    template <class Call>
    void blocking(const Call& call) const
    {
        const auto t = std::chrono::steady_clock::now();
        call();
        traffic_.waitSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    }
    /// The bytes of a matrix message: its two dimensions (long long), then its doubles.
    static long long matrixBytes(long long elements) { return 2 * 8 + 8 * elements; }

    /// Rows travel as one MPI type per row, so counts stay rows (< 2^31) for any matrix size.
    void rows(MatrixXfR& M, const RowBlocks& b) const
    {
        requireSize("Ranks::allGatherRows", "rows", M.rows(), b.rows);
        if (M.cols() == 0 || M.cols() > std::numeric_limits<int>::max())
            throw ContractError("Ranks::allGatherRows", "a row of " + std::to_string(M.cols()) + " floats");
        std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
        for (int q = 0; q < size_; ++q) {
            const Eigen::Index first = b.begin(firstBlock(b.count(), q)), last = b.begin(lastBlock(b.count(), q));
            offsets[std::size_t(q)] = int(first);
            counts[std::size_t(q)] = int(last - first);
        }
        MPI_Datatype row;
        MPI_Type_contiguous(int(M.cols()), MPI_FLOAT, &row);
        MPI_Type_commit(&row);
        blocking([&] { MPI_Allgatherv(MPI_IN_PLACE, 0, row, M.data(), counts.data(), offsets.data(), row, MPI_COMM_WORLD); });
        MPI_Type_free(&row);
        if (size_ > 1) {
            const long long rowBytes = 4 * M.cols(), own = counts[std::size_t(rank_)];
            traffic_.bytesSent += rowBytes * own;
            traffic_.bytesReceived += rowBytes * (b.rows - own);
        }
    }

    int rank_ = 0, size_ = 1;
};

/// Every rank of the job on this machine, as Open MPI's launcher tells each process.
bool allRanksOnThisMachine()
{
    const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    return size && local && std::string(size) == local;
}

} // namespace

Processes::Processes(int& argc, char**& argv)
{
    if (!launchedByMpirun()) return;
    // On one machine the messages go through shared memory, which Open MPI's ob1 layer carries. Its
    // default layer, UCX, is opened first and costs every start 0.22 s (`info` on the digits under
    // `mpirun -np 2`: 0.51 s, 0.28 s with ob1). A pml chosen on mpirun's command line or in
    // OMPI_MCA_pml stands (one in a parameter file does not: the environment comes before it).
    // Across machines UCX stays the default, for the networks it drives.
    if (allRanksOnThisMachine()) setenv("OMPI_MCA_pml", "ob1", 0);
    // Over TCP (ranks on several machines, or `--mca btl self,tcp`) a message moves only while its
    // ranks are inside MPI, unless Open MPI's TCP progress thread moves it: with it, the block sums'
    // subtrees come in while the ranks compute (QM7, irf:s=4000,r=20, kfold:5, fixed kernel, P = 2
    // over loopback: waits 1.15 / 1.57 s without, 0.29 / 0.61 s with). The user's setting stands.
    setenv("OMPI_MCA_btl_tcp_progress_thread", "1", 0);
    MPI_Init(&argc, &argv);
    mpi_ = std::make_unique<MpiRanks>();
}

Processes::~Processes()
{
    if (mpi_) MPI_Finalize();
}

void Processes::abortAll(int status) const
{
    if (mpi_) MPI_Abort(MPI_COMM_WORLD, status);
}

bool Processes::mpiBuilt() { return true; }

#else

Processes::Processes(int&, char**&) {}
Processes::~Processes() = default;
void Processes::abortAll(int) const {}
bool Processes::mpiBuilt() { return false; }

#endif

const Ranks& Processes::ranks() const { return mpi_ ? *mpi_ : oneProcess(); }

} // namespace orbit::cli
