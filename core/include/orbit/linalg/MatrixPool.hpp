#pragma once
// Large double matrices kept for reuse within one computation, so that its loops over folds, cells
// and grid points take the memory of the previous D x D Gram or factor instead of fresh pages
// (glibc maps every block over 32 MB afresh and unmaps it when freed: each use paid its page
// faults again, 14 M of them for the QM7 LGIKA row).
#include <Eigen/Core>

namespace orbit {

class MatrixPool {
public:
    /// While a Scope lives on this thread, give() keeps matrices in the thread's pool (at most 16 and
    /// 2 GiB; the oldest go first) and take() hands them out again. Scopes nest; the pool is freed
    /// when the outermost ends. Without a scope, give() frees at once and take() allocates.
    class Scope {
    public:
        Scope();
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    };

    /// A rows x cols matrix with unspecified contents: a pooled one of exactly that size when there
    /// is one, else the smallest pooled one at most an eighth larger, shrunk in place (its pages,
    /// not fresh ones), else a fresh one.
    static Eigen::MatrixXd take(Eigen::Index rows, Eigen::Index cols);
    /// take(), with every page of a fresh matrix faulted in now (one write per page; a pooled one's
    /// are in already): for a matrix another process writes into, e.g. a message received, where a
    /// fault taken inside the receive would count as waiting for that process. Contents unspecified.
    static Eigen::MatrixXd takePagedIn(Eigen::Index rows, Eigen::Index cols);
    /// The pooled matrix with the most entries (unspecified size and contents), or an empty one: for a
    /// caller that resizes it.
    static Eigen::MatrixXd takeAny();
    /// Keeps m for a later take() in this thread's scope; frees it when there is none.
    static void give(Eigen::MatrixXd&& m);
};

} // namespace orbit
