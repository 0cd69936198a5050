// Where a command's documents go once its run is measured or compared: which document, in which
// format, to stdout or to which file, and what is said on stdout beside a file. One decision for
// the bench binary, `benchkit run`, `ab`, `bisect` and `compare`; cli/ carries it out (emit() in
// cli/report_output.hpp), writing each file atomically.
//
// A bench binary's results and, with --baseline, its verdicts: stdout carries one document: html
// and junit hold both in one; with a comparison and another machine format (json, csv, markdown)
// and no --out, stdout carries the comparison, the results going to --out only when it is given;
// a format with no form for a comparison (gbench, bmf, github-action) leaves the comparison to
// the console table.
#pragma once

#include <string>
#include <vector>

#include "report/reporter.hpp"

namespace benchkit::report {

struct RunOutputs {
  bool both_in_one = false;           // results and comparison in one document (html, junit)
  bool comparison_on_stdout = false;  // stdout carries the comparison alone, in `format`
};

RunOutputs route_run_outputs(Format format, bool has_comparison, bool out_given);

// One thing written: `document` rendered in `format` (or `text` as it is, when the document is
// empty), on stdout or into the file `path`.
struct Output {
  std::string path{};  // empty: stdout
  Format format = Format::console;
  Document document{};
  std::string text{};
  // Written only once the files at these paths were (a console echo of --out, "written to
  // FILE"); an empty path stands for no file.
  std::vector<std::string> only_after{};

  bool to_file() const { return !path.empty(); }
};

// What the flags ask of a command's report: --format, --out FILE, --html FILE, --quiet.
struct Destinations {
  Format format = Format::console;
  std::string out{};
  std::string html{};
  bool quiet = false;
};

// The bench binary's report: the results (and with a comparison the page of both) before the
// lines saying what was kept, then the verdicts.
struct RunReport {
  std::vector<Output> results{};
  // The lines saying what was kept are left out: --quiet, or the comparison alone on stdout.
  bool kept_quietly = false;
  std::vector<Output> verdicts{};
};

// `comparison` may be null (no --baseline). With --out the file holds the results (with html or
// junit the page of both) and, unless --quiet, stdout the console table and "results written to
// FILE"; --html FILE is the page of both.
RunReport plan_run_report(const Destinations& to, const RunResult& run,
                          const model::Comparison* comparison);

// One document: in --format on stdout, or in the file --out; and with --html the page (the same
// parts, or more: compare's new run under its verdicts) in that file once --out was written.
// `report`, `noise` and `compare`.
std::vector<Output> plan_document(const Destinations& to, const Document& document,
                                  const Document& page);

// How a comparing command treats --out: `ab` and `bisect` still show the console table (after
// `commands_table`, ab --cmd's runs) and say where the file went; `compare` prints nothing
// more, and its HTML pages show the new run's samples under the verdicts.
enum class OutStyle { echoed, replaced };

// A comparison's report (ab, bisect, compare). `run`: the new run, for compare's HTML pages.
// The format must have a form for a comparison (refuse_comparison_format).
std::vector<Output> plan_comparison_report(const Destinations& to, OutStyle style,
                                           const model::Comparison& comparison,
                                           const RunResult* run,
                                           const std::string& commands_table = {});

// `benchkit run`'s exports, each a file of the results in its format (json, markdown, csv,
// junit), those whose path is not empty.
struct Exports {
  std::string json{};
  std::string markdown{};
  std::string csv{};
  std::string junit{};
};
std::vector<Output> plan_exports(const Exports& exports, const RunResult& run);

}  // namespace benchkit::report
