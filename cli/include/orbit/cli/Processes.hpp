#pragma once
// The processes orbitlab-cli runs as: the ranks of an MPI job under mpirun (when built with MPI,
// CMake option ORBIT_MPI), otherwise this process alone.
#include "orbit/parallel/Ranks.hpp"

#include <memory>

namespace orbit::cli {

/// One per program, made by main() before anything else. Started by mpirun (Open MPI's environment
/// says so), it initialises MPI and its ranks() are the job's; otherwise ranks() is oneProcess() and
/// MPI is never touched. The destructor finalises MPI.
class Processes {
public:
    Processes(int& argc, char**& argv);
    ~Processes();
    Processes(const Processes&) = delete;
    Processes& operator=(const Processes&) = delete;

    const Ranks& ranks() const;
    /// Ends every rank of the job with `status` (MPI_Abort), so that none waits in a collective for
    /// a rank that failed. Does nothing in a one-process run.
    void abortAll(int status) const;

    /// Whether this build can run under mpirun.
    static bool mpiBuilt();

private:
    std::unique_ptr<Ranks> mpi_;
};

} // namespace orbit::cli
