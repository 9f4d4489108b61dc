#pragma once
// learn --learner gp and evidence --learner gp (LearnGp.cpp), called by Learn.cpp's commands.
#include "orbit/cli/Cli.hpp"
#include "orbit/locality/LocalityLearning.hpp"

#include <string>
#include <vector>

namespace orbit::cli {

/// learn --learner gp: the exact GP's marginal likelihood, fold by fold with --eval kfold:K.
int runLearnGp(const Args& args, LocalityConfig c, Io& io);
/// evidence --learner gp over one parameter's values.
int runEvidenceGp(const Args& args, LocalityConfig c, const std::vector<std::string>& params, const std::vector<double>& values,
                  Io& io);

} // namespace orbit::cli
