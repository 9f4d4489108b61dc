#include "ManyProcesses.hpp"

#include "orbit/cli/Processes.hpp"
#include "orbit/parallel/Ranks.hpp"

namespace orbit::cli {

Option blockRowsOptionSpec()
{
    return {"block-rows", "", false, "N",
            "rows per block of the fixed row partition (default " + std::to_string(kDefaultBlockRows) +
                "); results depend on it, never on the number of processes"};
}

Eigen::Index blockRowsOption(const Args& args)
{
    return Eigen::Index(args.integer("block-rows", kDefaultBlockRows, 1, kMaxBlockRows));
}

Json rankCountersJson(const Ranks& ranks)
{
    Json list = Json::array();
    int q = 0;
    for (const RankTraffic& t : ranks.everyRankTraffic())
        list.push_back({{"rank", q++}, {"bytes_sent", t.bytesSent}, {"bytes_received", t.bytesReceived}, {"wait_seconds", t.waitSeconds}});
    return list;
}

std::string manyProcessesHelp()
{
    return std::string("Many processes: `mpirun -np P orbitlab-cli ...` runs one job over P ranks") +
           (Processes::mpiBuilt() ? "" : " (this build has no MPI: configure with -DORBIT_MPI=ON)") +
           ". Rows are split into\n"
           "blocks of --block-rows, each rank computes the features of its own blocks, and sums over rows\n"
           "are added in one fixed tree of blocks: the output is the same bits at any P. Fits that do not\n"
           "split over rows (a Cholesky per lambda, an SVM per C, an evidence maximisation) are dealt\n"
           "out to the ranks in turn. Feature rows stay on the rank that computed them when every fit sums\n"
           "over rows (ridge and blr in the primal, learn); svm, krr and the dual form gather them.\n"
           "features, train, learn and evidence read the data in two passes: the labels, then only the\n"
           "input rows of the rank's own blocks and of the median rule's sample (all rows for a map that\n"
           "fits on the data); --json input_rows_held gives the most input rows one rank read.\n"
           "--json rank_counters gives every rank's bytes_sent and bytes_received through MPI (a\n"
           "collective counts what the rank contributes and what it obtains, once each) and wait_seconds,\n"
           "its time blocked in MPI calls.\n"
           "Rank 0 writes; a rank that fails ends the job with its message.\n"
           "--threads defaults to the cores shared by the ranks on one machine.\n\n";
}

} // namespace orbit::cli
