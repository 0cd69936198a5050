// Where a run's documents go when a comparison may come with them (a bench binary's results and,
// with --baseline, its verdicts). stdout carries one document: html and junit hold both in one;
// with a comparison and another machine format (json, csv, markdown) and no --out, stdout carries
// the comparison, the results going to --out only when it is given; a format with no form for a
// comparison (gbench, bmf, github-action) leaves the comparison to the console table.
#pragma once

#include "report/reporter.hpp"

namespace benchkit::report {

struct RunOutputs {
  bool both_in_one = false;           // results and comparison in one document (html, junit)
  bool comparison_on_stdout = false;  // stdout carries the comparison alone, in `format`
};

RunOutputs route_run_outputs(Format format, bool has_comparison, bool out_given);

}  // namespace benchkit::report
