// `benchkit noise`'s options as plain data (cli/noise_command.cpp binds its flags to these
// fields), and what they ask for: an A/A experiment through the run pipeline (a command after
// --, or a bench binary in N fresh processes), a bench binary counted in two orders, or a
// result file analysed as it is.
#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "session/plans.hpp"

namespace benchkit::session {

struct NoiseCommandOptions {
  std::string target;                    // a bench binary or a result file
  std::vector<std::string> trailing;     // after --: flags for the bench binary, or a command
  std::vector<std::string> stray_words;  // words after the target but before "--"
  std::size_t processes = 10;
  model::Format format = model::Format::console;
  std::string out;
  std::string html;
  Mode mode = Mode::time;  // instructions: the counted suite in two orders
  std::string command_line;
};

// What the report of an experiment or a file names: what ran ("./my_bench", "sleep 0.1"), and
// how the user runs a comparison of it ("./my_bench --baseline NAME").
struct NoiseSubject {
  std::string subject;
  std::string example;
};

// Measured through the run pipeline.
struct NoiseExperiment {
  Plan plan;
  NoiseSubject shown;
};

// A result file written by a bench binary with --processes N --out FILE: analysed as it is.
struct NoiseResultFile {
  std::string path;
  NoiseSubject shown;
};

using NoiseTarget = std::variant<NoiseExperiment, CountOrderPlan, NoiseResultFile>;

// The form the words ask for; the error says which words are missing or misplaced.
model::Result<NoiseTarget> noise_target(const NoiseCommandOptions& options);

}  // namespace benchkit::session
