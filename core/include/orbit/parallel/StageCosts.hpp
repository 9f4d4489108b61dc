#pragma once
// What a computation spread over ranks spent its time on, stage by stage.
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

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

    /// Every stage's seconds on the slowest rank, and the most rows one rank held. Collective.
    StageCosts slowest(const Ranks& ranks) const
    {
        StageCosts s = *this;
        s.features = ranks.maximum(features);
        s.products = ranks.maximum(products);
        s.reduction = ranks.maximum(reduction);
        s.solve = ranks.maximum(solve);
        s.heldRows = static_cast<long long>(ranks.maximum(double(heldRows)));
        return s;
    }

    /// Every rank's own stage seconds, in rank order (the slowest rank's stages need not come from one
    /// rank: a rank that finishes its products early waits in the reduction). Collective.
    std::vector<StageCosts> everyRank(const Ranks& ranks) const
    {
        Eigen::MatrixXd mine(1, 4);
        mine << features, products, reduction, solve;
        std::vector<StageCosts> all;
        for (const Eigen::MatrixXd& piece : ranks.allPieces(mine)) {
            StageCosts s;
            s.features = piece(0, 0);
            s.products = piece(0, 1);
            s.reduction = piece(0, 2);
            s.solve = piece(0, 3);
            all.push_back(s);
        }
        return all;
    }
};

} // namespace orbit
