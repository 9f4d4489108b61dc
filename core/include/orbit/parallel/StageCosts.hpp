#pragma once
// What a computation spread over ranks spent its time on, stage by stage.
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <vector>

namespace orbit {

/// Wall-clock seconds of a run (train, learn, evidence) by stage, and the rows its products
/// covered. In train, the dual form (krr, ridge with more features than rows) counts its N x N Gram
/// matrix, a sum over feature-column chunks, as products and reduction; the rest of every fit (and
/// all of svm's) is solve. In learn and evidence, the gradient's block sums count as products and
/// reduction too.
struct StageCosts {
    double features = 0.0;   ///< fitting the maps and computing this rank's feature rows
    double products = 0.0;   ///< this rank's block products F_b^T F_b, F_b^T Y_b
    double reduction = 0.0;  ///< gathering feature rows and summing block products across ranks
    double solve = 0.0;      ///< factorisations, evidence maximisation and predictions
    /// Training rows whose block products were computed, over all fits (the same count at any
    /// number of ranks): a fold's inner and outer fits share per-cell sums, so each of the fold's
    /// training rows counts once.
    long long productRows = 0;
    /// The most feature rows one rank held at once: N when they are gathered on every rank, about
    /// N / P when they stay spread (ridge and blr whose fits are all primal).
    long long heldRows = 0;

    /// Every rank's own stages and rows, in rank order (the slowest rank's stages need not come from
    /// one rank: a rank that finishes its products early waits in the reduction). Collective.
    std::vector<StageCosts> everyRank(const Ranks& ranks) const
    {
        Eigen::MatrixXd mine(1, 6);
        mine << features, products, reduction, solve, double(productRows), double(heldRows);
        std::vector<StageCosts> all;
        for (const Eigen::MatrixXd& piece : ranks.allPieces(mine)) {
            StageCosts s;
            s.features = piece(0, 0);
            s.products = piece(0, 1);
            s.reduction = piece(0, 2);
            s.solve = piece(0, 3);
            s.productRows = static_cast<long long>(piece(0, 4));
            s.heldRows = static_cast<long long>(piece(0, 5));
            all.push_back(s);
        }
        return all;
    }

    /// Every stage's seconds on the slowest rank and the most rows one rank held, from everyRank's
    /// stages (productRows is the same on every rank).
    static StageCosts slowestOf(const std::vector<StageCosts>& all)
    {
        StageCosts s = all.front();
        for (const StageCosts& r : all) {
            s.features = std::max(s.features, r.features);
            s.products = std::max(s.products, r.products);
            s.reduction = std::max(s.reduction, r.reduction);
            s.solve = std::max(s.solve, r.solve);
            s.heldRows = std::max(s.heldRows, r.heldRows);
        }
        return s;
    }

    /// slowestOf(everyRank(ranks)). Collective.
    StageCosts slowest(const Ranks& ranks) const { return slowestOf(everyRank(ranks)); }
};

} // namespace orbit
