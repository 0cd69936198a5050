#include "session/noise_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "analysis/compare.hpp"
#include "session/command_options.hpp"

namespace benchkit::session {
namespace {

// A result file written by a bench binary with --processes N --out FILE: analysed as it is.
bool looks_like_result_file(const std::string& target) {
  return target.size() > 5 && target.ends_with(".json") && access(target.c_str(), X_OK) != 0;
}

}  // namespace

model::Result<NoiseTarget> noise_target(const NoiseCommandOptions& o) {
  if (o.target.empty() && !o.trailing.empty()) {
    const std::string subject = fmt::format("{}", fmt::join(o.trailing, " "));
    return NoiseTarget{
        NoiseExperiment{Plan{CommandNoisePlan{o.trailing, o.processes, o.command_line}, {}},
                        {subject, "benchkit run --baseline NAME -- " + subject}}};
  }
  if (o.target.empty()) {
    return usage_error(
        "benchkit noise needs a bench binary (benchkit noise ./my_bench) or a command after -- "
        "(benchkit noise -- CMD ARGS…)");
  }
  if (!o.stray_words.empty()) {
    return usage_error(fmt::format(
        "unexpected argument \"{}\": flags for the bench binary go after -- (benchkit noise {} -- "
        "{})",
        o.stray_words.front(), o.target, o.stray_words.front()));
  }
  if (o.mode == Mode::instructions) {
    return NoiseTarget{CountOrderPlan{o.target, o.trailing, analysis::kCountNoiseThreshold}};
  }
  if (looks_like_result_file(o.target)) {
    return NoiseTarget{NoiseResultFile{o.target, {o.target, "BENCH_BINARY --baseline NAME"}}};
  }
  return NoiseTarget{NoiseExperiment{Plan{NoisePlan{o.target, o.processes, o.trailing}, {}},
                                     {o.target, o.target + " --baseline NAME"}}};
}

}  // namespace benchkit::session
