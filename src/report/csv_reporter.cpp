// CSV for spreadsheets and scripts (RFC 4180), one document per output: for results one row per
// benchmark in nanoseconds per iteration; for a comparison or a noise report, theirs.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/counters.hpp"
#include "model/failure.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

std::string optional_number(const std::optional<double>& value) {
  return value ? fmt::format("{}", *value) : "";
}

// The samples' iteration count: their median (the lower of the middle two). Samples of several
// processes or rounds are each sized anew, so the first sample's count (what the column held
// until 2026-12-07) can be far from the others'.
std::uint64_t median_iterations(const std::vector<Sample>& samples) {
  if (samples.empty()) return 0;
  std::vector<std::uint64_t> counts;
  counts.reserve(samples.size());
  for (const Sample& sample : samples) counts.push_back(sample.iters);
  const auto middle = counts.begin() + static_cast<std::ptrdiff_t>((counts.size() - 1) / 2);
  std::nth_element(counts.begin(), middle, counts.end());
  return *middle;
}

// The user counters as one field, "name=value;name=value/s": each value with its kind applied
// (model/counters.hpp) to 15 significant digits (what a double holds exactly: the mean of three
// 0.2222 is 0.2222, not 0.22220000000000004), "/s" after a rate, "n/a" when the kind cannot be
// applied.
std::string counters_field(const BenchmarkResult& b) {
  std::string out;
  for (const auto& [name, raw] : b.counters) {
    const auto value = model::counter_value(b, name);
    const bool rate = counter::has(model::counter_kind(b, name), counter::rate);
    if (!out.empty()) out += ";";
    out += name + "=" + (value ? fmt::format("{:.15g}{}", *value, rate ? "/s" : "") : "n/a");
  }
  return out;
}

}  // namespace

std::string parts::results_csv(const RunResult& run) {
  std::string out =
      "name,kind,median_ns,median_lower_ns,median_upper_ns,mean_ns,stddev_ns,min_ns,max_ns,"
      "mad_ns,samples,iterations_per_sample,bytes_per_second,items_per_second,diagnostics,"
      "counters,label\n";
  for (const BenchmarkResult& b : run.benchmarks) {
    const Estimates& e = b.estimates;
    // A skipped or failed benchmark has no measurement: its figures are empty, never 0, and its
    // row says why where the flags go.
    const bool failed = model::failed_unmeasured(b);
    std::string codes = b.skipped ? "skipped:" + b.skipped->tag
                        : failed  ? "failed:" + std::string(model::unmeasured_cause(b))
                                  : "";
    for (const Diagnostic& d : b.diagnostics) {
      if (!codes.empty()) codes += ";";
      codes += d.code;
    }
    std::string figures;
    if (b.skipped || failed) {
      figures = fmt::format(",,,,,,,,{},", b.samples.size());
    } else {
      const std::uint64_t iterations = median_iterations(b.samples);
      figures = fmt::format("{},{},{},{},{},{},{},{},{},{}", e.median.value, e.median.lower,
                            e.median.upper, e.mean.value, e.stddev, e.min, e.max, e.mad,
                            b.samples.size(), iterations);
    }
    out += fmt::format("{},{},{},{},{},{},{},{}\n", csv_quote(b.name), b.kind, figures,
                       optional_number(e.bytes_per_second), optional_number(e.items_per_second),
                       csv_quote(codes), csv_quote(counters_field(b)), csv_quote(b.label));
  }
  return out;
}

namespace {

class CsvReporter final : public Reporter {
 private:
  Format format() const override { return Format::csv; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise}, false};
  }
  std::string render_accepted(const Document& document) const override {
    if (document.comparison) return parts::comparison_csv(*document.comparison);
    if (document.noise) return parts::noise_csv(*document.noise);
    return parts::results_csv(*document.results);
  }
};

}  // namespace

std::unique_ptr<Reporter> make_csv_reporter() {
  return std::make_unique<CsvReporter>();
}

}  // namespace benchkit::report
