#include "report/run_outputs.hpp"

#include "analysis/compare.hpp"

namespace benchkit::report {

RunOutputs route_run_outputs(Format format, bool has_comparison, bool out_given) {
  RunOutputs route;
  route.both_in_one = format == Format::html || format == Format::junit;
  if (!has_comparison || out_given || format == Format::console || route.both_in_one) {
    return route;
  }
  // Whether the format has a form for a comparison depends on the parts, not on their content.
  const analysis::Comparison any;
  route.comparison_on_stdout = make_reporter(format)->refusal(Document{.comparison = &any}).empty();
  return route;
}

}  // namespace benchkit::report
