#pragma once
// Private helper of the learners: run an Eigen factorisation with single-threaded products.
//
// Eigen's parallel GEMM chooses its blocking (and so the order of floating-point sums) from the
// number of threads, which would make factorisations differ in the last bits between thread
// counts. Inside an OpenMP team of more than one thread Eigen runs its products sequentially with
// the single-thread blocking, so running `f` in a `single` block of such a team makes the result
// independent of OMP_NUM_THREADS, without touching Eigen's global thread setting. Exceptions are
// carried out of the parallel region and rethrown. Do not call OpenMP-parallel code inside `f`
// (it would run on one thread).
#include <exception>

namespace orbit::detail {

template <class F>
void sequentialEigen(F&& f)
{
    std::exception_ptr error;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
            try {
                f();
            } catch (...) {
                error = std::current_exception();
            }
        }
    }
    if (error)
        std::rethrow_exception(error);
}

} // namespace orbit::detail
