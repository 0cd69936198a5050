// What a reporter renders: one input for every format, holding the parts a command prints (a
// run's results, its comparison against a baseline, an A/A noise report, the machine checks, the
// once-per-run machine warnings).
#pragma once

#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/machine_check.hpp"

namespace benchkit::model {
struct Comparison;  // model/comparison.hpp (analysis::Comparison)
}  // namespace benchkit::model

namespace benchkit::report {

struct NoiseReport;   // report/noise.hpp
struct SystemReport;  // report/machine_checks.hpp

// The kinds of part a Document may hold, in the order a format that renders several prints them.
enum class Part { results, comparison, noise, machine_checks, warnings };

// "results", "comparison", "noise", "machine checks", "machine warnings": for messages.
std::string_view to_string(Part part);

// A view of the parts to render: each pointer is a part it holds, null for one it does not. It
// owns nothing, so every part must outlive the Document; build one where it is rendered:
//   reporter.render({.results = &run, .comparison = &comparison});
struct Document {
  const RunResult* results = nullptr;
  const model::Comparison* comparison = nullptr;
  const NoiseReport* noise = nullptr;
  const SystemReport* machine_checks = nullptr;
  const std::vector<model::MachineWarning>* warnings = nullptr;

  bool holds(Part part) const;
  // The parts held, in the order of Part; empty for an empty Document.
  std::vector<Part> parts() const;
};

}  // namespace benchkit::report
