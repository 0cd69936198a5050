// The HTML report: one self-contained page (no request leaves it when it opens, it works from a
// local file) that draws its charts as SVG with the script compiled into benchkit
// (src/report/html/report.js; docs/reports.md says why no chart library).
//
// The page holds, in this order: the summary table (every benchmark, its median with CI,
// throughput, verdict and flags; sortable and filterable; regressions first) under the run's
// context and machine warnings; the comparison's forest plot; line charts (sweeps, and any
// extra chart section a caller gives, such as a history trend); scenario phases as bars; the
// A/A noise table; the machine checks; then one section per benchmark (distribution, samples in
// order, diagnostics, counters, memory), drawn only when scrolled into view.
//
// Data reaches the page only as JSON inside <script type="application/json"> elements, with
// '<', '>' and '&' written as \u escapes, and the script puts text into the page only through
// textContent and attributes: a benchmark named </script><img src=x onerror=alert(1)> is shown
// as text and runs nothing. Each benchmark's samples are a JSON element of their own, parsed
// when its section is first drawn, so a report of 5,000 benchmarks opens without parsing them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/profile.hpp"
#include "report/document.hpp"

namespace benchkit::report::html {

// One point of a line chart: `y` at `x`, with its interval when it has one. `label` is shown
// on hover (a benchmark name, a commit); a `marked` point is drawn larger, in the warning colour
// (a change point, a point whose result is invalid).
struct LinePoint {
  double x = 0.0;
  double y = 0.0;
  std::optional<double> lower;
  std::optional<double> upper;
  std::string label;
  bool marked = false;
};

struct LineSeries {
  std::string name;  // the legend: "workers=4", "" for a chart of one line
  std::vector<LinePoint> points;
  bool fitted = false;  // a fitted curve (complexity): drawn dashed, without points
};

// How the page writes a value of an axis: as a duration (nanoseconds), bytes per second, items
// per second, or a plain number.
enum class Unit { nanoseconds, bytes_per_second, items_per_second, number };

// A chart of lines with per-point intervals. `categories`, when not empty, names the x values
// 0, 1, 2, ... (a parameter that is not a number, or commits in order).
struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  Unit y_unit = Unit::nanoseconds;
  bool log_x = false;
  std::vector<std::string> categories;
  std::vector<LineSeries> series;
};

// A section of line charts under its own heading, after the sweeps. The entry point for views
// that are not a Document part: `benchkit history trend` renders its trend lines (x = commit
// index with `categories` the commits, marked points the change points) through render_page.
// A table of text cells (a profile's functions, allocation sites, system calls).
struct TextTable {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

// A flame graph: folded stacks, laid out by report/flame_graph.hpp and drawn by the page.
struct FlameChart {
  std::string title;
  std::string unit;
  std::vector<model::FoldedStack> stacks;
};

struct ChartSection {
  std::string id;  // the anchor: letters, digits and '-'
  std::string title;
  std::string intro;  // one paragraph above the charts, or ""
  std::vector<LineChart> charts;
  std::optional<FlameChart> flame;  // drawn after the charts
  std::vector<TextTable> tables;    // ... then these
  std::vector<std::string> notes;   // ... then these paragraphs
};

// Benchmarks that differ only by parameters (names `base/key=value/...`, at least two of them
// with one parameter taking two or more values) as line charts: time per iteration (and
// throughput, when every one of them declares work) against the parameter with the most numeric
// values, one line per combination of the others. Scenario phases and failed benchmarks are
// left out. In the order the groups first appear in the run. A sweep with a complexity fit
// (RunResult::complexity) over the chart's x parameter gets the fitted curve as a dashed line.
std::vector<LineChart> sweep_charts(const RunResult& run);

// The whole page for `document` (which must hold at least one part; every part is rendered)
// with `extra` chart sections after the sweeps.
std::string render_page(const Document& document, const std::vector<ChartSection>& extra = {});

// `json` made safe inside a <script> element: '<', '>' and '&' (which JSON has only inside
// strings) become \u003c, \u003e and \u0026, and so do U+2028 and U+2029.
std::string escape_for_script(const std::string& json);

}  // namespace benchkit::report::html
