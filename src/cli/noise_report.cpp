#include "cli/noise_report.hpp"

#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "report/noise.hpp"
#include "report/reporter.hpp"

namespace benchkit::cli {

int report_noise(const RunResult& run, const NoiseOptions& options) {
  const auto format = report::parse_format(options.format);
  if (!format) return report_error(model::Error{format.error().message, model::ErrorKind::usage});
  report::NoiseReport noise;
  noise.subject = options.subject;
  noise.example = options.example;
  noise.analysis = analysis::analyse_noise(run, options.settings);
  noise.warnings = run.context.warnings;
  const report::Document document{.noise = &noise};
  if (const int status = render_or_write(*format, document, options.out); status != 0) {
    return status;
  }
  if (!options.html.empty()) {
    if (const int status = write_html(options.html, document); status != 0) return status;
  }
  if (!noise.analysis.recommendation) {
    return report_error(model::Error{"no benchmark ran in 2 or more processes; nothing to analyse",
                                     model::ErrorKind::input});
  }
  return 0;
}

}  // namespace benchkit::cli
