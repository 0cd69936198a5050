// `benchkit history report --since DATE` rendered: the Markdown snapshot a team keeps in its
// repository (perf/2026-11.md): which runs were compared, their commits and machines, the table of
// changes from the first run of the period to the newest, and the change points found in it. The
// snapshot itself (analysis/history_snapshot.hpp) is built by session/history.hpp.
#pragma once

#include <string>

#include "analysis/history_snapshot.hpp"

namespace benchkit::report {

std::string render_snapshot_markdown(const analysis::HistorySnapshot& snapshot);

// The snapshot as one HTML page (html::render_page): the comparison of the first run of the
// period with the newest (summary table and forest plot), then the period's trend line of every
// benchmark with its change points marked (trend_charts), the runs compared named in its intro.
std::string render_snapshot_html(const analysis::HistorySnapshot& snapshot);

}  // namespace benchkit::report
