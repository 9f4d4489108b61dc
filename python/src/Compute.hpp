#pragma once
// How the module calls the core: numpy rows read in place, the GIL released while the core works,
// Ctrl+C and the verbose printer served through the core's Progress, and n_jobs as the core's
// thread budget.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace orbitpy {

namespace py = pybind11;

/// A 2-D float32 or float64 numpy array of any strides (C or Fortran order, a slice), read where it
/// lies: rows are converted into float32 blocks only when the core asks for them. The array is kept
/// alive; reading it needs no GIL.
class Rows {
public:
    /// Throws ValueError unless `a` is a 2-D float32 or float64 array (the estimators validate
    /// first; this is the binding's own guard).
    explicit Rows(py::array a) : array_(std::move(a))
    {
        if (array_.ndim() != 2) throw py::value_error("expected a 2-d array");
        const auto dtype = array_.dtype();
        const bool native = dtype.byteorder() != '>';
        if (dtype.kind() == 'f' && dtype.itemsize() == 4 && native)
            single_ = true;
        else if (dtype.kind() == 'f' && dtype.itemsize() == 8 && native)
            single_ = false;
        else
            throw py::value_error("expected float32 or float64 values in the machine's byte order");
        data_ = static_cast<const char*>(array_.data());
        rows_ = array_.shape(0);
        cols_ = array_.shape(1);
        rowStride_ = array_.strides(0);
        colStride_ = array_.strides(1);
    }

    Eigen::Index rows() const { return rows_; }
    Eigen::Index cols() const { return cols_; }
    /// float32 and C-ordered: the core could read it as it is.
    bool contiguousSingle() const { return single_ && colStride_ == 4 && (rows_ <= 1 || rowStride_ == 4 * cols_); }

    /// Rows [begin, end) as float32 into out (resized).
    void copy(Eigen::Index begin, Eigen::Index end, orbit::MatrixXfR& out) const
    {
        out.resize(end - begin, cols_);
        if (contiguousSingle()) {
            if (end > begin) std::memcpy(out.data(), data_ + begin * rowStride_, std::size_t((end - begin) * cols_) * 4);
            return;
        }
        for (Eigen::Index i = begin; i < end; ++i) {
            const char* row = data_ + i * rowStride_;
            float* o = out.data() + (i - begin) * cols_;
            if (single_)
                for (Eigen::Index j = 0; j < cols_; ++j) std::memcpy(o + j, row + j * colStride_, 4);
            else
                for (Eigen::Index j = 0; j < cols_; ++j) {
                    double v;
                    std::memcpy(&v, row + j * colStride_, 8);
                    o[j] = static_cast<float>(v);
                }
        }
    }
    orbit::MatrixXfR all() const
    {
        orbit::MatrixXfR m;
        copy(0, rows_, m);
        return m;
    }
    /// The rows `idx`, in that order.
    orbit::MatrixXfR select(const std::vector<std::size_t>& idx) const
    {
        orbit::MatrixXfR m(Eigen::Index(idx.size()), cols_), one;
        for (std::size_t k = 0; k < idx.size(); ++k) {
            copy(Eigen::Index(idx[k]), Eigen::Index(idx[k]) + 1, one);
            m.row(Eigen::Index(k)) = one.row(0);
        }
        return m;
    }

private:
    py::array array_;
    const char* data_ = nullptr;
    Eigen::Index rows_ = 0, cols_ = 0;
    py::ssize_t rowStride_ = 0, colStride_ = 0;
    bool single_ = true;
};

/// n_jobs as the core's compute budget for the length of one call (0: the budget as it is).
class BudgetScope {
public:
    explicit BudgetScope(int threads) : previous_(orbit::computeBudget()), set_(threads > 0)
    {
        if (set_) orbit::setComputeBudget(threads);
    }
    ~BudgetScope()
    {
        if (set_) orbit::setComputeBudget(previous_);
    }
    BudgetScope(const BudgetScope&) = delete;
    BudgetScope& operator=(const BudgetScope&) = delete;

private:
    int previous_;
    bool set_;
};

/// Runs work(progress) with the GIL released. `progress`, when the core reports from the calling
/// thread (at most every 50 ms), takes the GIL back to run Python's signal handlers -- a pending
/// Ctrl+C raises KeyboardInterrupt there and the core stops at its next report (Cancelled) -- and
/// to call `verbose(fraction, what)` unless it is None. The exception raised in Python is
/// re-raised when the core has stopped. `work` must not touch Python objects.
template <class F>
auto computing(int nJobs, const py::object& verbose, F&& work) -> decltype(work(orbit::Progress{}))
{
    using Clock = std::chrono::steady_clock;
    const BudgetScope budget(nJobs);
    const auto caller = std::this_thread::get_id();
    std::optional<py::error_already_set> raised;
    std::atomic<bool> stop{false};
    auto last = Clock::now() - std::chrono::seconds(1);
    const orbit::Progress progress = [&](double fraction, const std::string& what) -> bool {
        if (stop.load()) return true;
        if (std::this_thread::get_id() != caller) return false;
        const auto now = Clock::now();
        if (now - last < std::chrono::milliseconds(50)) return false;
        last = now;
        py::gil_scoped_acquire gil;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!verbose.is_none()) verbose(fraction, what);
        } catch (py::error_already_set& e) {
            raised.emplace(std::move(e));
            stop = true;
            return true;
        }
        return false;
    };
    try {
        py::gil_scoped_release release;
        auto result = work(progress);
        if (stop.load()) throw orbit::Cancelled();
        return result;
    } catch (const orbit::Cancelled&) {
        if (raised) throw std::move(*raised);
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
}

inline orbit::DataKind kindOf(const std::string& name)
{
    if (name == "images") return orbit::DataKind::Images;
    if (name == "coulomb") return orbit::DataKind::Coulomb;
    if (name == "vectors") return orbit::DataKind::Vectors;
    throw orbit::SpecError("input_kind", "must be images, coulomb or vectors", name);
}

inline orbit::Shape shapeOf(const std::vector<int>& s)
{
    if (s.size() != 3) throw orbit::SpecError("image_shape", "expected (height, width, channels)");
    for (int v : s)
        if (v < 1) throw orbit::SpecError("image_shape", "dimensions must be positive", std::to_string(v));
    return {s[0], s[1], s[2]};
}

/// A float32 numpy array that owns a copy of M.
inline py::array_t<float> toArray(const orbit::MatrixXfR& M)
{
    py::array_t<float> a({M.rows(), M.cols()});
    if (M.size() > 0) std::memcpy(a.mutable_data(), M.data(), std::size_t(M.size()) * sizeof(float));
    return a;
}

inline py::array_t<double> toArray(const Eigen::MatrixXd& M)
{
    py::array_t<double> a({M.rows(), M.cols()});
    auto r = a.mutable_unchecked<2>();
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) r(i, j) = M(i, j);
    return a;
}


inline Eigen::MatrixXd toMatrix(const py::array_t<double, py::array::forcecast>& a)
{
    if (a.ndim() != 2) throw py::value_error("expected a 2-d array");
    const auto r = a.unchecked<2>();
    Eigen::MatrixXd M(r.shape(0), r.shape(1));
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) M(i, j) = r(i, j);
    return M;
}

/// A 1-d float64 array as a vector (py::value_error otherwise).
inline Eigen::VectorXd toVector(const py::array_t<double, py::array::forcecast>& a)
{
    if (a.ndim() != 1) throw py::value_error("expected a 1-d array");
    const auto r = a.unchecked<1>();
    Eigen::VectorXd v(r.shape(0));
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = r(i);
    return v;
}

/// The exact invariant kernel machines' functions (ExactKernels.cpp).
void registerExactKernels(py::module_& m);
/// orbitlab._orbitlab.sweep (Sweep.cpp).
void registerSweep(py::module_& m);

/// The dicts of ModelDicts.cpp: a fitted map's recipe, a target coding and a saved model, both ways
/// (the keys orbitlab/models.py reads and writes).
py::dict recipeDict(const orbit::MapRecipe& r);
orbit::MapRecipe recipeFrom(const py::dict& d);
py::dict codingDict(const orbit::TargetCoding& c);
py::dict modelDict(const orbit::SavedModel& m);
/// A saved model from its dict, checked (SavedModel::checkConsistent).
orbit::SavedModel modelFrom(const py::dict& d);

} // namespace orbitpy
