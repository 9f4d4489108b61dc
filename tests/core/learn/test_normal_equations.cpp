// Normal equations summed over row blocks, added over cells of rows and coded afterwards, and the
// dealing of whole fits to ranks: what `train` relies on to share a fold's products and to spread
// its solves.
#include "PlayedRank.hpp"
#include "RandomMatrices.hpp"
#include "ThreadRanks.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <stdexcept>

using namespace orbit;
using orbittest::PlayedRank;
using orbittest::onThreadRanks;

namespace {

MatrixXfR features(Eigen::Index n, Eigen::Index d) { return orbittest::randomMatrix(n, d, 37); }

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / b.norm(); }

/// Features spread over the ranks as training spreads them: each rank's first block (the usual
/// even runs, then the block count) and the rows of F this rank holds.
struct SpreadRows {
    std::vector<Eigen::Index> starts;
    MatrixXfR held;
};

SpreadRows spreadRows(const MatrixXfR& F, const RowBlocks& blocks, const Ranks& ranks)
{
    SpreadRows out;
    for (int q = 0; q < ranks.size(); ++q) out.starts.push_back(ranks.firstBlock(blocks.count(), q));
    out.starts.push_back(blocks.count());
    const auto me = std::size_t(ranks.rank());
    const Eigen::Index first = blocks.begin(out.starts[me]);
    out.held = F.middleRows(first, blocks.begin(out.starts[me + 1]) - first);
    return out;
}

/// Rank `me` of `size` ranks that records the owners its results are broadcast from (one process
/// plays one rank: no rank ever needs another's data here).
class RecordingRanks final : public PlayedRank {
public:
    RecordingRanks(int me, int size) : PlayedRank(me, size) {}
    void broadcast(Eigen::MatrixXd& M, int from) const override
    {
        owners.push_back(from);
        if (from != rank()) M = Eigen::MatrixXd::Constant(1, 1, -1.0);  // what the owner would send
    }
    mutable std::vector<int> owners;
};

} // namespace

class TestNormalEquations : public QObject {
    Q_OBJECT
private slots:
    /// Spread features: a rank's held rows summed over the blocks it owns. At one rank (every
    /// block owned) the same bits as from the whole matrix; held rows that are not the owned run's,
    /// and rows outside the data, are contract errors.
    void heldRowsSumLikeTheWholeMatrix()
    {
        const Eigen::Index n = 70, d = 5;
        const MatrixXfR F = features(n, d);
        const RowBlocks blocks{n, 16};
        Indices rows;
        for (std::size_t i = 0; i < std::size_t(n); i += 3) rows.push_back(i);
        Eigen::MatrixXd Y(Eigen::Index(rows.size()), 2);
        for (Eigen::Index k = 0; k < Y.rows(); ++k) Y.row(k) << std::sin(double(k)), 1.0;
        const NormalEquations whole = normalEquations(F, rows, Y, blocks, oneProcess());
        const NormalEquations held = normalEquationsOfHeld(F, {0, blocks.count()}, rows, Y, blocks, oneProcess());
        QVERIFY(held.G == whole.G);
        QVERIFY(held.B == whole.B);
        QCOMPARE(held.samples, whole.samples);
        QVERIFY_THROWS_EXCEPTION(ContractError, normalEquationsOfHeld(F.topRows(32), {0, blocks.count()}, rows, Y, blocks, oneProcess()));
        QVERIFY_THROWS_EXCEPTION(ContractError, normalEquationsOfHeld(F, {0, 2}, rows, Y, blocks, oneProcess()));
        Indices outside = rows;
        outside.back() = std::size_t(n);
        QVERIFY_THROWS_EXCEPTION(ContractError, normalEquationsOfHeld(F, {0, blocks.count()}, outside, Y, blocks, oneProcess()));
    }

    /// Cells of a fold (its inner validation set and the rest), each summed over blocks with raw
    /// targets and coded after adding, give the equations of the whole training set computed
    /// directly with coded targets: for +-1 classes, one-hot classes and standardised targets.
    void cellsAddUpToTheTrainingSet()
    {
        const Eigen::Index n = 90, d = 7;
        const MatrixXfR F = features(n, d);
        Indices train;
        for (std::size_t i = 0; i < std::size_t(n); ++i)
            if (i % 5 != 2) train.push_back(i);  // the rows left out are some fold's test rows
        const Split inner = innerValidation(train, 0.25, 7, {});
        const std::vector<Indices> cells = cellsOf(train, {inner.test});
        QCOMPARE(cells.size(), std::size_t(2));
        QCOMPARE(cells[0].size() + cells[1].size(), train.size());
        const RowBlocks blocks{n, 16};

        std::vector<int> labels(static_cast<std::size_t>(n));
        std::vector<double> targets(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < std::size_t(n); ++i) {
            labels[i] = int((i * 7) % 3);
            targets[i] = 3.0 + std::cos(0.1 * double(i));
        }
        for (int kind = 0; kind < 3; ++kind) {
            const TargetCoding coding = kind == 0   ? TargetCoding::classes(3)
                                        : kind == 1 ? TargetCoding::classes(3, TargetCoding::Kind::OneHot)
                                                    : TargetCoding::regression(select(targets, train));
            auto raw = [&](const Indices& rows) {
                return kind < 2 ? rawTargets(select(labels, rows), 3) : rawTargets(select(targets, rows));
            };
            NormalEquations sum = normalEquations(F, cells[0], raw(cells[0]), blocks, oneProcess());
            const NormalEquations second = normalEquations(F, cells[1], raw(cells[1]), blocks, oneProcess());
            sum.G += second.G;
            sum.B += second.B;
            sum.samples += second.samples;
            const NormalEquations viaCells = coded(std::move(sum), coding);
            const Eigen::MatrixXd Y = kind < 2 ? coding.encode(select(labels, train)) : coding.encode(select(targets, train));
            const NormalEquations direct = normalEquations(F, train, Y, blocks, oneProcess());
            QCOMPARE(viaCells.samples, Eigen::Index(train.size()));
            QVERIFY2(relative(viaCells.G, direct.G) < 1e-14, qPrintable(QString::number(relative(viaCells.G, direct.G))));
            QVERIFY2(relative(viaCells.B, direct.B) < 1e-13, qPrintable(QString("coding %1: B off by %2").arg(kind).arg(relative(viaCells.B, direct.B))));
        }
    }

    void cellsTellRowsApartByMembership()
    {
        // Inner 3-fold sets of rows 0..8 split them into three cells; one validation set into two.
        const Indices rows = {8, 1, 2, 3, 4, 5, 6, 7, 0};
        const std::vector<Indices> three = {{0, 3, 6}, {1, 4, 7}, {2, 5, 8}};
        const std::vector<Indices> cells = cellsOf(rows, three);
        QCOMPARE(cells, (std::vector<Indices>{{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}));
        QCOMPARE(cellsOf(rows, {{5, 2, 99}}), (std::vector<Indices>{{0, 1, 3, 4, 6, 7, 8}, {2, 5}}));
        QCOMPARE(cellsOf(rows, {}), (std::vector<Indices>{{0, 1, 2, 3, 4, 5, 6, 7, 8}}));
    }

    void codingChecksItsColumns()
    {
        NormalEquations raw;
        raw.G = Eigen::MatrixXd::Identity(2, 2);
        raw.B = Eigen::MatrixXd::Zero(2, 2);  // one class column and ones: too few for 3 classes
        QVERIFY_THROWS_EXCEPTION(ContractError, coded(raw, TargetCoding::classes(3)));
        QVERIFY_THROWS_EXCEPTION(ContractError, rawTargets(std::vector<int>{0, 3}, 3));
    }

    /// Task k of n runs only on rank (first + k) mod P, and every result is broadcast from there,
    /// in task order; one process runs them all.
    void dealRunsEachTaskOnOneRank()
    {
        for (int P : {1, 2, 3})
            for (int me = 0; me < P; ++me) {
                const RecordingRanks ranks(me, P);
                std::vector<std::size_t> ran;
                const auto out = ranks.deal(4, 5, [&](std::size_t k) {
                    ran.push_back(k);
                    return Eigen::MatrixXd::Constant(1, 1, double(k));
                });
                std::vector<std::size_t> mine;
                std::vector<int> owners;
                for (std::size_t k = 0; k < 5; ++k) {
                    const int owner = int((4 + k) % std::size_t(P));
                    if (owner == me) mine.push_back(k);
                    owners.push_back(owner);
                    QCOMPARE(out[k](0, 0), owner == me ? double(k) : -1.0);
                }
                QCOMPARE(ran, mine);
                QCOMPARE(ranks.owners, P == 1 ? std::vector<int>{} : owners);
            }
        std::size_t calls = 0;
        const auto all = oneProcess().deal(0, 3, [&](std::size_t k) {
            ++calls;
            return Eigen::MatrixXd::Constant(2, 1, double(k));
        });
        QCOMPARE(calls, std::size_t(3));
        QCOMPARE(all[2](1, 0), 2.0);
    }

    /// Owners by cost in contiguous runs: a fold's two fits of four equal Choleskys each go whole to
    /// one rank each at P = 2 (so each rank forms one fit's equations), the first run to rank
    /// `first`; unequal costs (three inner at 1, three outer at 2) load two ranks 5 and 4, not 6 and 3.
    void contiguousOwnersKeepAFitsValuesTogether()
    {
        QCOMPARE(contiguousOwners(std::vector<double>(8, 1.0), 2, 0), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
        QCOMPARE(contiguousOwners(std::vector<double>(8, 1.0), 2, 3), (std::vector<int>{1, 1, 1, 1, 0, 0, 0, 0}));
        QCOMPARE(contiguousOwners(std::vector<double>(8, 1.0), 3, 1), (std::vector<int>{1, 1, 1, 2, 2, 2, 0, 0}));
        QCOMPARE(contiguousOwners(std::vector<double>(3, 1.0), 1, 5), (std::vector<int>{0, 0, 0}));
        const std::vector<double> costs{1, 1, 1, 2, 2, 2};
        const std::vector<int> owners = contiguousOwners(costs, 2, 0);
        double load[2] = {0, 0};
        for (std::size_t k = 0; k < costs.size(); ++k) load[owners[k]] += costs[k];
        QCOMPARE(std::max(load[0], load[1]), 5.0);
        QCOMPARE(owners, (std::vector<int>{0, 0, 0, 0, 1, 1}));
        QCOMPARE(contiguousOwners(std::vector<double>(2, 1.0), 3, 0), (std::vector<int>{0, 1}));  // rank 2 idle
        QVERIFY_THROWS_EXCEPTION(ContractError, contiguousOwners(costs, 0, 0));
    }

    /// Leaves whose first D columns are a symmetric Gram block, summed by their lower triangles
    /// alone (LeafShape): at P = 1, 2 and 3 (ranks on threads, the partial sums and the sum
    /// travelling packed) the same bits as summing the whole symmetric leaves in one process, by
    /// count and by weight. The leaves' entries above the diagonal are garbage that must not be
    /// read; the sum's are mirrored.
    void lowerTrianglesSumLikeTheWholeLeaves()
    {
        const Eigen::Index D = 37, C = 3, blocks = 11;
        std::vector<Eigen::MatrixXd> whole, lower;
        for (Eigen::Index b = 0; b < blocks; ++b) {
            const Eigen::MatrixXd X = features(50 + 3 * b, D + C).cast<double>() * std::pow(10.0, double(b % 4) - 1.5);
            Eigen::MatrixXd leaf(D, D + C);
            leaf.leftCols(D) = X.leftCols(D).transpose() * X.leftCols(D);
            leaf.leftCols(D).triangularView<Eigen::StrictlyUpper>() = leaf.leftCols(D).transpose();
            leaf.rightCols(C) = X.leftCols(D).transpose() * X.rightCols(C);
            whole.push_back(leaf);
            leaf.leftCols(D).triangularView<Eigen::StrictlyUpper>().setConstant(1e300 * double(b + 1));
            lower.push_back(leaf);
        }
        const BlockLeafInto wholeLeaf = [&](Eigen::Index b, Eigen::MatrixXd& out) { out = whole[std::size_t(b)]; };
        const BlockLeafInto lowerLeaf = [&](Eigen::Index b, Eigen::MatrixXd& out) { out = lower[std::size_t(b)]; };
        const Eigen::MatrixXd reference = sumOverBlocks(oneProcess(), blocks, wholeLeaf);
        QVERIFY(reference.leftCols(D) == reference.leftCols(D).transpose());
        const std::vector<double> weights{5, 0, 0, 1, 1, 1, 7, 0, 2, 2, 1};
        for (int P : {1, 2, 3})
            for (bool weighted : {false, true}) {
                const auto sums = onThreadRanks(P, [&](const Ranks& ranks) {
                    return sumOverBlocks(ranks, blocks, lowerLeaf, nullptr, weighted ? &weights : nullptr, LeafShape{D});
                });
                for (int q = 0; q < P; ++q)
                    QVERIFY2(sums[std::size_t(q)] == reference,
                             qPrintable(QString("P = %1, rank %2, weighted %3").arg(P).arg(q).arg(weighted)));
                // The whole leaves travel whole (no shape): the same bits too.
                const auto plain = onThreadRanks(P, [&](const Ranks& ranks) { return sumOverBlocks(ranks, blocks, wholeLeaf); });
                for (const Eigen::MatrixXd& m : plain) QVERIFY(m == reference);
            }
        QVERIFY_THROWS_EXCEPTION(ContractError, sumOverBlocks(oneProcess(), blocks, lowerLeaf, nullptr, nullptr, LeafShape{D + 1}));
        QVERIFY_THROWS_EXCEPTION(ContractError, sumOverBlocks(oneProcess(), blocks, lowerLeaf, nullptr, nullptr, LeafShape{-1}));
    }

    /// Several sums over the same blocks in one exchange (sumManyOverOwnedBlocks: the subtrees of a
    /// rank other than the sum's root posted while it computes the next sum's leaves): at P = 1, 2
    /// and 3 (ranks on threads), with several owners of the blocks, sum k on its root (rootOfSum:
    /// the ranks in turn, also a rank owning no block) holds the same bits in the lower triangle and
    /// the other columns as the whole symmetric leaves of set k summed one by one in one process
    /// (the old full-matrix sum); every other rank holds none of them.
    void manySumsInOneExchangeAreTheSumsOneByOne()
    {
        const Eigen::Index D = 29, C = 2, blocks = 13;
        const std::size_t sets = 5;
        std::vector<std::vector<Eigen::MatrixXd>> whole(sets), lower(sets);
        for (std::size_t k = 0; k < sets; ++k)
            for (Eigen::Index b = 0; b < blocks; ++b) {
                const Eigen::MatrixXd X = orbittest::randomMatrix(20 + 3 * b + Eigen::Index(k), D + C, 11 + unsigned(k)).cast<double>() *
                                          std::pow(10.0, double((b + Eigen::Index(k)) % 5) - 2.0);
                Eigen::MatrixXd leaf(D, D + C);
                leaf.leftCols(D) = X.leftCols(D).transpose() * X.leftCols(D);
                leaf.leftCols(D).triangularView<Eigen::StrictlyUpper>() = leaf.leftCols(D).transpose();
                leaf.rightCols(C) = X.leftCols(D).transpose() * X.rightCols(C);
                whole[k].push_back(leaf);
                leaf.leftCols(D).triangularView<Eigen::StrictlyUpper>().setConstant(1e300);
                lower[k].push_back(leaf);
            }
        std::vector<Eigen::MatrixXd> reference;
        for (std::size_t k = 0; k < sets; ++k)
            reference.push_back(sumOverBlocks(oneProcess(), blocks, BlockLeafInto([&](Eigen::Index b, Eigen::MatrixXd& out) {
                                                  out = whole[k][std::size_t(b)];
                                              })));
        const ManyLeavesInto leaf = [&](std::size_t k, Eigen::Index b, Eigen::MatrixXd& out) { out = lower[k][std::size_t(b)]; };
        const auto lowerOf = [&](const Eigen::MatrixXd& M) {
            Eigen::MatrixXd L = M;
            L.leftCols(D).triangularView<Eigen::StrictlyUpper>().setZero();
            return L;
        };
        const std::vector<std::vector<Eigen::Index>> owners{{0, 13}, {0, 7, 13}, {0, 1, 13}, {0, 13, 13}, {0, 4, 9, 13}, {0, 0, 12, 13}};
        for (const std::vector<Eigen::Index>& starts : owners) {
            const int P = int(starts.size()) - 1;
            const auto sums = onThreadRanks(P, [&](const Ranks& ranks) {
                BlockSumTimes times;
                auto out = sumManyOverOwnedBlocks(ranks, starts, sets, leaf, &times, LeafShape{D});
                if (times.leaves < 0.0 || times.reduction < 0.0) throw std::runtime_error("negative times");
                return out;
            });
            for (int q = 0; q < P; ++q) {
                QCOMPARE(sums[std::size_t(q)].size(), sets);
                for (std::size_t k = 0; k < sets; ++k) {
                    const Eigen::MatrixXd& m = sums[std::size_t(q)][k];
                    const QString where = QString("starts %1, rank %2, sum %3").arg(starts[1]).arg(q).arg(k);
                    if (q != rootOfSum(k, P)) {
                        QVERIFY2(m.size() == 0, qPrintable(where + " is not the root's"));
                        continue;
                    }
                    QVERIFY2(m.rows() == D && m.cols() == D + C, qPrintable(where));
                    QVERIFY2(lowerOf(m) == lowerOf(reference[k]), qPrintable(where));
                }
            }
            // Whole leaves (no shape) travel whole: the same bits in every entry.
            const auto plain = onThreadRanks(P, [&](const Ranks& ranks) {
                return sumManyOverOwnedBlocks(ranks, starts, sets, [&](std::size_t k, Eigen::Index b, Eigen::MatrixXd& out) {
                    out = whole[k][std::size_t(b)];
                });
            });
            for (std::size_t k = 0; k < sets; ++k) QVERIFY(plain[std::size_t(rootOfSum(k, P))][k] == reference[k]);
        }
        // What travels on from the root: the carried entries and nothing else.
        Eigen::MatrixXd into = Eigen::MatrixXd::Constant(D, D + C, 7.0);
        into = unpackedCarried(packedCarried(reference[1], LeafShape{D}), LeafShape{D}, into);
        QVERIFY(lowerOf(into) == lowerOf(reference[1]));
        QCOMPARE(into(0, 1), 7.0);
        QVERIFY_THROWS_EXCEPTION(ContractError, sumManyOverOwnedBlocks(oneProcess(), {0, 5, 13}, sets, leaf));
    }

    /// The normal equations of several sets in one exchange (normalEquationsAtRoots), features on every
    /// rank or spread, at P = 1, 2 and 3: set k's root (rootOfSum, the ranks in turn) holds the same
    /// bits in G's lower triangle and in B as normalEquations of each set alone in one process; the
    /// other ranks hold only the counts.
    void normalEquationsOfSetsAtTheRoot()
    {
        const Eigen::Index n = 300, d = 24;
        const MatrixXfR F = features(n, d);
        const RowBlocks blocks{n, 32};
        std::vector<Indices> sets(3);
        std::vector<Eigen::MatrixXd> Ys;
        for (std::size_t i = 0; i < std::size_t(n); ++i) sets[i % 3 == 1 ? 0 : i % 5 == 0 ? 1 : 2].push_back(i);
        for (const Indices& set : sets) {
            Eigen::MatrixXd Y(Eigen::Index(set.size()), 2);
            for (Eigen::Index k = 0; k < Y.rows(); ++k) Y.row(k) << std::cos(0.7 * double(k + Eigen::Index(set.size()))), 1.0;
            Ys.push_back(Y);
        }
        for (int P : {1, 2, 3})
            for (bool spread : {false, true}) {
                const auto all = onThreadRanks(P, [&](const Ranks& ranks) {
                    if (!spread) return normalEquationsAtRoots(F, {}, sets, Ys, blocks, ranks);
                    const SpreadRows mine = spreadRows(F, blocks, ranks);
                    return normalEquationsAtRoots(mine.held, mine.starts, sets, Ys, blocks, ranks);
                });
                for (std::size_t k = 0; k < sets.size(); ++k) {
                    const NormalEquations one = normalEquations(F, sets[k], Ys[k], blocks, oneProcess());
                    const QString where = QString("P = %1, spread %2, set %3").arg(P).arg(spread).arg(k);
                    const int r = rootOfSum(k, P);
                    const NormalEquations& root = all[std::size_t(r)][k];
                    QVERIFY2(Eigen::MatrixXd(root.G.triangularView<Eigen::Lower>()) == Eigen::MatrixXd(one.G.triangularView<Eigen::Lower>()),
                             qPrintable(where));
                    QVERIFY2(root.B == one.B && root.samples == one.samples, qPrintable(where));
                    for (int q = 0; q < P; ++q) {
                        if (q == r) continue;
                        const NormalEquations& other = all[std::size_t(q)][k];
                        QVERIFY2(other.G.size() == 0 && other.B.size() == 0 && other.samples == one.samples, qPrintable(where));
                    }
                }
            }
    }

    /// The normal equations at P = 2 and 3 (ranks on threads, features on every rank or spread):
    /// the same bits as in one process, G exactly symmetric.
    void normalEquationsAreTheSameBitsOnManyRanks()
    {
        const Eigen::Index n = 300, d = 24;
        const MatrixXfR F = features(n, d);
        const RowBlocks blocks{n, 32};
        Indices rows;
        for (std::size_t i = 0; i < std::size_t(n); ++i)
            if (i % 7 != 3) rows.push_back(i);
        Eigen::MatrixXd Y(Eigen::Index(rows.size()), 2);
        for (Eigen::Index k = 0; k < Y.rows(); ++k) Y.row(k) << std::sin(0.3 * double(k)), 1.0;
        const NormalEquations one = normalEquations(F, rows, Y, blocks, oneProcess());
        QVERIFY(one.G == one.G.transpose());
        for (int P : {2, 3}) {
            const auto gathered = onThreadRanks(P, [&](const Ranks& ranks) {
                return normalEquations(F, rows, Y, blocks, ranks, nullptr, {}, true);
            });
            const auto spread = onThreadRanks(P, [&](const Ranks& ranks) {
                const SpreadRows mine = spreadRows(F, blocks, ranks);
                return normalEquationsOfHeld(mine.held, mine.starts, rows, Y, blocks, ranks);
            });
            for (int q = 0; q < P; ++q) {
                QVERIFY2(gathered[std::size_t(q)].G == one.G && gathered[std::size_t(q)].B == one.B, qPrintable(QString("P = %1, rank %2").arg(P).arg(q)));
                QVERIFY2(spread[std::size_t(q)].G == one.G && spread[std::size_t(q)].B == one.B, qPrintable(QString("spread, P = %1, rank %2").arg(P).arg(q)));
            }
        }
    }

    /// A block's lower Gram written into a recycled buffer full of garbage (no zeroing pass): the
    /// same bits on and below the diagonal as gramOfColumns, whatever the buffer held, over one
    /// chunk of rows and over several.
    /// postLower / receiveLower (the default: the triangle packed, as the thread ranks and one
    /// process carry it): rank 1 gets rank 0's lower triangle exactly, into a matrix of another size
    /// (resized) or of its size (written over, the upper part left as it was); a matrix that is not
    /// square is refused. The MPI ranks' own types are checked by the MPI suite's identity runs.
    void lowerTrianglesTravelAlone()
    {
        const Eigen::MatrixXd G = Eigen::MatrixXd::Random(7, 7);
        const auto got = onThreadRanks(2, [&](const Ranks& ranks) {
            Eigen::MatrixXd resized = Eigen::MatrixXd::Constant(2, 3, 9.0), kept = Eigen::MatrixXd::Constant(7, 7, 9.0);
            if (ranks.rank() == 0) {
                ranks.postLower(G, 1);
                ranks.postLower(G, 1);
                ranks.waitPosted(0);
                return Eigen::MatrixXd();
            }
            ranks.receiveLower(0, resized);
            ranks.receiveLower(0, kept);
            Eigen::MatrixXd both(7, 14);
            both << resized, kept;
            return both;
        });
        const Eigen::MatrixXd resized = got[1].leftCols(7), kept = got[1].rightCols(7);
        for (Eigen::Index j = 0; j < 7; ++j)
            for (Eigen::Index i = 0; i < 7; ++i) {
                if (i >= j) {
                    QCOMPARE(resized(i, j), G(i, j));
                    QCOMPARE(kept(i, j), G(i, j));
                } else {
                    QCOMPARE(kept(i, j), 9.0);
                }
            }
        QVERIFY_THROWS_EXCEPTION(ContractError, oneProcess().postLower(Eigen::MatrixXd::Zero(3, 4), 0));
    }

    void lowerGramOverwritesARecycledBuffer()
    {
        for (Eigen::Index n : {0, 90, 1100}) {
            const MatrixXfR X = features(n, 300);
            const Eigen::MatrixXd full = gramOfColumns(X);
            Eigen::MatrixXd G = Eigen::MatrixXd::Constant(300, 300, std::nan(""));
            lowerGramOfColumns(X, G, {});
            const Eigen::MatrixXd lower = G.triangularView<Eigen::Lower>();
            QVERIFY2(lower == Eigen::MatrixXd(full.triangularView<Eigen::Lower>()), qPrintable(QString("%1 rows").arg(n)));
        }
    }

    /// mirrorLower (in tiles) copies exactly the strictly lower triangle onto the upper one, for
    /// sizes that are and are not multiples of its tile, and in a block of a larger matrix.
    void mirrorCopiesTheLowerTriangle()
    {
        for (Eigen::Index n : {1, 63, 64, 150, 257}) {
            Eigen::MatrixXd G = Eigen::MatrixXd::Random(n, n);
            Eigen::MatrixXd expected = G;
            expected.triangularView<Eigen::StrictlyUpper>() = G.transpose();
            mirrorLower(G);
            QVERIFY2(G == expected, qPrintable(QString("n = %1").arg(n)));
        }
        Eigen::MatrixXd M = Eigen::MatrixXd::Random(130, 133);
        const Eigen::MatrixXd before = M;
        mirrorLower(M.topLeftCorner(130, 130));
        QVERIFY(M.rightCols(3) == before.rightCols(3));
        QVERIFY(M.leftCols(130) == M.leftCols(130).transpose());
        QVERIFY(Eigen::MatrixXd(M.leftCols(130).triangularView<Eigen::Lower>()) ==
                Eigen::MatrixXd(before.leftCols(130).triangularView<Eigen::Lower>()));
    }

    /// Blocks owned by weight: contiguous runs of about equal weight (equal counts when nothing
    /// weighs); a rank computes the leaves of its run only, whatever the counts, and one process
    /// gets the same sum with weights as without.
    void weightedOwnershipFollowsTheRows()
    {
        QCOMPARE(weightedBlockStarts({1, 1, 1, 1}, 2), (std::vector<Eigen::Index>{0, 2, 4}));
        QCOMPARE(weightedBlockStarts({1, 1, 0, 0}, 2), (std::vector<Eigen::Index>{0, 1, 4}));  // test rows last
        QCOMPARE(weightedBlockStarts({0, 0, 1, 1}, 2), (std::vector<Eigen::Index>{0, 3, 4}));
        QCOMPARE(weightedBlockStarts({5, 0, 0, 0, 0, 1}, 2), (std::vector<Eigen::Index>{0, 1, 6}));
        QCOMPARE(weightedBlockStarts({0, 0, 0}, 3), (std::vector<Eigen::Index>{0, 1, 2, 3}));
        QCOMPARE(weightedBlockStarts({1, 1, 1, 1, 1, 1}, 3), (std::vector<Eigen::Index>{0, 2, 4, 6}));

        const std::vector<double> weights{1, 1, 0, 0};
        std::vector<Eigen::Index> computed;
        const auto leaf = [&](Eigen::Index b) {
            computed.push_back(b);
            return Eigen::MatrixXd::Constant(2, 2, double(b + 1)).eval();
        };
        sumOverBlocks(RecordingRanks(1, 2), 4, leaf, nullptr, &weights);
        QCOMPARE(computed, (std::vector<Eigen::Index>{1, 2, 3}));  // rank 1's run: blocks 1 to 3
        computed.clear();
        sumOverBlocks(RecordingRanks(1, 2), 4, leaf);
        QCOMPARE(computed, (std::vector<Eigen::Index>{2, 3}));  // by count: blocks 2 and 3
        computed.clear();
        const Eigen::MatrixXd plain = sumOverBlocks(oneProcess(), 4, leaf);
        QVERIFY(sumOverBlocks(oneProcess(), 4, leaf, nullptr, &weights) == plain);
        QVERIFY_THROWS_EXCEPTION(ContractError, sumOverBlocks(oneProcess(), 3, leaf, nullptr, &weights));
    }

    /// The calls over own rows cover every row once over the ranks, stay inside the rank's blocks,
    /// and are the same runs at P = 1, 2, 3: cut at block boundaries and multiples of callRows.
    void ownRowsAreCutAlikeAtAnyRankCount()
    {
        const RowBlocks blocks{103, 20};
        for (Eigen::Index callRows : {Eigen::Index(0), Eigen::Index(7), Eigen::Index(64)}) {
            std::vector<std::pair<Eigen::Index, Eigen::Index>> onOne;
            RecordingRanks(0, 1).forOwnRows(blocks, callRows, [&](Eigen::Index b, Eigen::Index e) { onOne.emplace_back(b, e); });
            QCOMPARE(onOne.front().first, Eigen::Index(0));
            QCOMPARE(onOne.back().second, blocks.rows);
            for (std::size_t k = 0; k < onOne.size(); ++k) {
                const auto [b, e] = onOne[k];
                QVERIFY(b < e);
                if (k > 0) QCOMPARE(b, onOne[k - 1].second);
                QCOMPARE(blocks.of(b), blocks.of(e - 1));                       // inside one block
                if (callRows > 0) QCOMPARE(b / callRows, (e - 1) / callRows);  // and one run of callRows
            }
            QCOMPARE(onOne.size(), callRows == 7 ? std::size_t(20) : callRows == 64 ? std::size_t(7) : std::size_t(6));
            for (int P : {2, 3}) {
                std::vector<std::pair<Eigen::Index, Eigen::Index>> overRanks;
                for (int me = 0; me < P; ++me) {
                    const RecordingRanks ranks(me, P);
                    ranks.forOwnRows(blocks, callRows, [&](Eigen::Index b, Eigen::Index e) {
                        QVERIFY(b >= ranks.firstRow(blocks) && e <= ranks.lastRow(blocks));
                        overRanks.emplace_back(b, e);
                    });
                }
                QCOMPARE(overRanks, onOne);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestNormalEquations)
#include "test_normal_equations.moc"
