#pragma once
// Runs orbitlab-cli under mpirun for the MPI suites. The flags a CI container needs live here, not in
// the user commands of docs/cli.md: --allow-run-as-root (CI runs as root), --oversubscribe (3 ranks on a
// 2-core machine), and shared memory between ranks on this one machine; ORBIT_MPI_TRANSPORT=tcp in the
// environment takes Open MPI's TCP transport on loopback instead (the messages a cluster's ranks send).
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <unistd.h>

namespace orbittest {

struct MpiRun {
    int exitCode = -1;
    bool finished = false;  ///< false: still running at the time limit (a hang), and killed
    QByteArray out, err;
};

/// mpirun -np P PROGRAM ARGS... with one thread per rank; `program` defaults to orbitlab-cli.
inline MpiRun runMpi(int ranks, const QStringList& args, int timeoutMs = 300000, const QString& program = ORBIT_CLI_PATH)
{
    QStringList all = {"-np", QString::number(ranks), "--oversubscribe", "--bind-to", "none"};
    if (geteuid() == 0) all << "--allow-run-as-root";
    all << "-x" << "OMP_NUM_THREADS=1" << program << args;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (env.value("ORBIT_MPI_TRANSPORT") == "tcp") {
        // --mca pml ob1 --mca btl self,tcp --mca btl_tcp_if_include lo
        env.insert("OMPI_MCA_pml", "ob1");
        env.insert("OMPI_MCA_btl", "self,tcp");
        env.insert("OMPI_MCA_btl_tcp_if_include", "lo");
    } else {
        env.insert("OMPI_MCA_btl", "self,vader");                         // loopback: shared memory only
        env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");  // containers forbid CMA
    }
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    p.setProcessEnvironment(env);
    p.start(ORBIT_MPIEXEC_PATH, all);
    MpiRun r;
    if (!p.waitForStarted(30000)) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(10000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace orbittest
