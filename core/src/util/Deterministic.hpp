#pragma once
// Private: parallel work whose results do not depend on --threads.
// Eigen's own threading picks its product blocking from the thread count, which changes float
// rounding; products whose results must not depend on the thread count run under SerialEigen, and
// parallel loops split the work into a fixed partition (forEachBlock) instead of per-thread chunks.
#include <Eigen/Core>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <mutex>

namespace orbit::detail {

/// Eigen runs single-threaded while this guard lives.
class SerialEigen {
public:
    SerialEigen() : saved_(Eigen::nbThreads()) { Eigen::setNbThreads(1); }
    ~SerialEigen() { Eigen::setNbThreads(saved_); }
    SerialEigen(const SerialEigen&) = delete;
    SerialEigen& operator=(const SerialEigen&) = delete;

private:
    int saved_;
};

/// Runs body(begin, end) over the fixed partition of [0, count) into blocks of `block`, in an
/// OpenMP loop; Eigen runs single-threaded inside (each product's reduction order is fixed), and
/// the first exception is rethrown after the loop.
template <class Body>
void forEachBlock(std::size_t count, std::size_t block, Body&& body)
{
    const long long blocks = static_cast<long long>((count + block - 1) / block);
    const SerialEigen serial;
    std::exception_ptr error;
    std::mutex m;
#pragma omp parallel for schedule(dynamic, 1)
    for (long long b = 0; b < blocks; ++b) {
        try {
            const std::size_t begin = std::size_t(b) * block;
            body(begin, std::min(count, begin + block));
        } catch (...) {
            std::lock_guard<std::mutex> lock(m);
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);
}

} // namespace orbit::detail
