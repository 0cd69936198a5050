#include "report/noise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "report/parts.hpp"

namespace benchkit::report {
namespace {

using analysis::BenchmarkNoise;
using analysis::NoiseRecommendation;
using analysis::SideThreshold;

// Thresholds shown in the table: one process a side (a plain run), the bench binary's default
// of 3 when it compares baselines, and 5; the JSON has every count.
constexpr std::size_t kShownCounts[] = {1, 3, 5};

// Past 1000% the digits say nothing more (a tiny run on a wild machine reaches 10⁸%): the text
// forms cap there; the JSON and CSV keep the numbers.
std::string percent(double fraction) {
  if (fraction > 10.0) return ">1000%";
  return fmt::format("{:.1f}%", fraction * 100.0);
}

std::string plus_minus(double fraction) {
  return fraction > 10.0 ? ">±1000%" : "±" + percent(fraction);
}

std::string processes_text(std::size_t count) {
  return fmt::format("{} process{}", count, count == 1 ? "" : "es");
}

std::string flags_text(const NoiseRecommendation& r) {
  return fmt::format("--processes {} --noise-threshold {:.3f}", r.processes, r.threshold);
}

std::string threshold_cell(const BenchmarkNoise& b, std::size_t count) {
  const SideThreshold* side = b.at(count);
  return side ? plus_minus(analysis::round_threshold_up(side->threshold)) : "";
}

std::string recommendation_cell(const BenchmarkNoise& b, double target) {
  if (!b.recommendation) return "see note";
  const NoiseRecommendation& r = *b.recommendation;
  std::string text = fmt::format("{}, {}", processes_text(r.processes), plus_minus(r.threshold));
  if (!r.within_target) text += fmt::format(" (above ±{})", percent(target));
  return text;
}

const std::vector<std::string>& noise_headers() {
  static const std::vector<std::string> list = {"benchmark",   "median",      "spread",
                                                "CV",          "between",     "1 process",
                                                "3 processes", "5 processes", "recommended"};
  return list;
}

std::vector<std::vector<std::string>> rows(const NoiseReport& report) {
  std::vector<std::vector<std::string>> result;
  const double target = report.analysis.settings.target_threshold;
  for (const BenchmarkNoise& b : report.analysis.benchmarks) {
    const bool any = !b.process_medians.empty();
    std::vector<std::string> row = {
        b.name, any ? format_duration(b.median) : "", b.analysed() ? percent(b.spread) : "",
        b.analysed() ? percent(b.cv) : "", b.between_share ? percent(*b.between_share) : ""};
    for (std::size_t count : kShownCounts) row.push_back(threshold_cell(b, count));
    row.push_back(recommendation_cell(b, target));
    result.push_back(std::move(row));
  }
  return result;
}

std::string legend(const NoiseReport& report) {
  const auto& s = report.analysis.settings;
  return fmt::format(
      "median: of the process medians; spread: slowest / fastest process median - 1; CV: "
      "between-process coefficient of variation of the process medians; between: the share of "
      "a sample's variance that comes from which process took it (near 100%: more processes "
      "sharpen a comparison, longer ones do not). 1, 3, 5 processes: "
      "the smallest --noise-threshold at which comparing that many processes a side gives a "
      "false `regressed` or `improved` in at most {:g}% of A/A comparisons on this machine "
      "(docs/noise.md).",
      s.false_alarm_rate * 100.0);
}

// The states the processes fell into, in words; empty when they did not fall into several.
std::string states_text(const BenchmarkNoise& b) {
  if (b.states.size() < 2) return "";
  std::string where;
  for (std::size_t i = 0; i < b.states.size(); ++i) {
    const stats::ProcessState& state = b.states[i];
    if (i > 0) where += i + 1 == b.states.size() ? " and " : ", ";
    const std::string low = format_duration(state.low);
    const std::string high = format_duration(state.high);
    where += low == high ? low : fmt::format("{}-{}", low, high);
    where += fmt::format(" in {} of {}", state.processes, b.process_medians.size());
  }
  return fmt::format(
      "the processes fell into {} states ({}): each process stays in one, so a comparison's "
      "answer depends on how many of its processes land in each (docs/noise.md, \"Performance "
      "states across processes\")",
      b.states.size(), where);
}

// The benchmark's note and its states, each a line.
std::vector<std::string> notes_of(const BenchmarkNoise& b) {
  std::vector<std::string> lines;
  if (!b.note.empty()) lines.push_back(b.note);
  if (std::string states = states_text(b); !states.empty()) lines.push_back(std::move(states));
  return lines;
}

std::string heading(const NoiseReport& report) {
  return fmt::format("A/A noise of {}: {} fresh processes", report.subject,
                     report.analysis.processes);
}

// Greedy word wrap at `width` columns (a word longer than the line stays whole).
std::string wrap(const std::string& text, std::size_t width) {
  std::string out;
  std::size_t line = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::size_t length = display_width(word);
    if (line > 0 && line + 1 + length > width) {
      out += '\n';
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += length;
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string parts::noise_console(const NoiseReport& report) {
  const auto table = rows(report);
  const auto& names = noise_headers();
  std::vector<std::size_t> widths(names.size());
  for (std::size_t c = 0; c < names.size(); ++c) widths[c] = display_width(names[c]);
  for (const auto& row : table) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  std::string out = heading(report) + "\n\n";
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool right = i >= 1 && i + 1 < cells.size();
      const std::string fill(widths[i] - display_width(cells[i]), ' ');
      if (i) line += "  ";
      line += right ? fill + cells[i] : cells[i] + fill;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(names);
  for (const auto& row : table) emit(row);
  out += "\n" + wrap(legend(report), 100) + "\n\n";
  out += wrap(noise_summary(report), 100) + "\n";
  bool first = true;
  for (const BenchmarkNoise& b : report.analysis.benchmarks) {
    for (const std::string& note : notes_of(b)) {
      if (first) out += "\n";
      first = false;
      out += fmt::format("{}: {}\n", b.name, note);
    }
  }
  if (!report.warnings.empty()) out += "\n";
  for (const Diagnostic& warning : report.warnings) {
    out += fmt::format("warning: {}\n", warning.message);
  }
  return out;
}

std::string parts::noise_markdown(const NoiseReport& report) {
  std::string out = fmt::format("**A/A noise of {}: {} fresh processes**\n\n",
                                markdown_code(report.subject), report.analysis.processes);
  out +=
      "| benchmark | median | spread | CV | between | 1 process | 3 processes | 5 processes | "
      "recommended |\n";
  out += "|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& row : rows(report)) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_code(row[0]),
                       row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]);
  }
  out += fmt::format("\n<sub>{}</sub>\n\n{}\n", legend(report), noise_summary(report));
  bool first = true;
  for (const BenchmarkNoise& b : report.analysis.benchmarks) {
    for (const std::string& note : notes_of(b)) {
      if (first) out += "\n";
      first = false;
      out += fmt::format("- {}: {}\n", markdown_code(b.name), note);
    }
  }
  if (!report.warnings.empty()) out += "\n";
  for (const Diagnostic& warning : report.warnings) {
    out += fmt::format("> ⚠️ {}\n", warning.message);
  }
  return out;
}

namespace {
nlohmann::ordered_json recommendation_json(const NoiseRecommendation& r) {
  nlohmann::ordered_json item;
  item["processes"] = r.processes;
  item["noise_threshold"] = r.threshold;
  item["within_target"] = r.within_target;
  if (!r.set_by.empty()) item["set_by"] = r.set_by;
  if (r.threshold_without_noisiest) {
    item["noise_threshold_without_set_by"] = *r.threshold_without_noisiest;
  }
  return item;
}

}  // namespace

std::string parts::noise_json(const NoiseReport& report) {
  const analysis::NoiseAnalysis& analysis = report.analysis;
  const auto& s = analysis.settings;
  nlohmann::ordered_json root;
  root["schema"] = "benchkit/noise";
  root["version"] = 1;
  root["subject"] = report.subject;
  root["processes"] = analysis.processes;
  root["settings"] = {{"false_alarm_rate", s.false_alarm_rate},
                      {"target_threshold", s.target_threshold},
                      {"fallback_processes", s.fallback_processes},
                      {"max_splits", s.max_splits},
                      {"seed", s.seed}};
  root["recommendation"] = analysis.recommendation ? recommendation_json(*analysis.recommendation)
                                                   : nlohmann::ordered_json(nullptr);
  root["summary"] = noise_summary(report);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const BenchmarkNoise& b : analysis.benchmarks) {
    nlohmann::ordered_json item;
    item["name"] = b.name;
    item["processes"] = b.process_medians.size();
    item["process_medians_ns"] = b.process_medians;
    if (!b.process_medians.empty()) item["median_ns"] = b.median;
    if (b.analysed()) {
      item["spread"] = b.spread;
      item["cv"] = b.cv;
      item["log_sd"] = b.log_sd;
      if (b.between_share) item["between_share"] = *b.between_share;
      if (b.states.size() > 1) {
        nlohmann::ordered_json states = nlohmann::ordered_json::array();
        for (const stats::ProcessState& state : b.states) {
          states.push_back({{"low_ns", state.low},
                            {"high_ns", state.high},
                            {"median_ns", state.centre},
                            {"processes", state.processes}});
        }
        item["states"] = std::move(states);
      }
      nlohmann::ordered_json thresholds = nlohmann::ordered_json::array();
      for (const SideThreshold& side : b.thresholds) {
        nlohmann::ordered_json entry;
        entry["processes"] = side.processes;
        entry["noise_threshold"] = side.threshold;
        entry["from_spread"] = side.from_spread;
        if (side.from_splits) {
          entry["from_splits"] = *side.from_splits;
          entry["splits"] = side.splits;
          entry["all_splits"] = side.all_splits;
        }
        thresholds.push_back(std::move(entry));
      }
      item["thresholds"] = std::move(thresholds);
    }
    if (b.recommendation) item["recommendation"] = recommendation_json(*b.recommendation);
    if (!b.note.empty()) item["note"] = b.note;
    list.push_back(std::move(item));
  }
  root["benchmarks"] = std::move(list);
  nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
  for (const Diagnostic& warning : report.warnings) {
    warnings.push_back({{"code", warning.code}, {"message", warning.message}});
  }
  root["warnings"] = std::move(warnings);
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string parts::noise_csv(const NoiseReport& report) {
  std::string out =
      "name,processes,median_ns,spread,cv,log_sd,between_share,states,threshold_1,threshold_3,"
      "threshold_5,recommended_processes,recommended_threshold,note\n";
  for (const BenchmarkNoise& b : report.analysis.benchmarks) {
    auto number = [&](double value) {
      return b.analysed() ? fmt::format("{}", value) : std::string();
    };
    auto threshold = [&](std::size_t count) {
      const SideThreshold* side = b.at(count);
      return side ? fmt::format("{}", side->threshold) : std::string();
    };
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_quote(b.name), b.process_medians.size(),
        b.process_medians.empty() ? std::string() : fmt::format("{}", b.median), number(b.spread),
        number(b.cv), number(b.log_sd),
        b.between_share ? fmt::format("{}", *b.between_share) : std::string(),
        b.analysed() ? std::to_string(std::max<std::size_t>(b.states.size(), 1)) : std::string(),
        threshold(1), threshold(3), threshold(5),
        b.recommendation ? std::to_string(b.recommendation->processes) : std::string(),
        b.recommendation ? fmt::format("{}", b.recommendation->threshold) : std::string(),
        csv_quote(b.note));
  }
  return out;
}

std::string noise_summary(const NoiseReport& report) {
  const analysis::NoiseAnalysis& analysis = report.analysis;
  const auto& s = analysis.settings;
  if (!analysis.recommendation) {
    return "No benchmark ran in 2 or more processes, so there is no spread between processes "
           "to measure: run the suite with --processes 3 or more (10 by default).";
  }
  const BenchmarkNoise* widest = nullptr;
  double largest_cv = 0.0;
  std::size_t largest_count = 0;
  for (const BenchmarkNoise& b : analysis.benchmarks) {
    if (!b.analysed()) continue;
    if (!widest || b.spread > widest->spread) widest = &b;
    largest_cv = std::max(largest_cv, b.cv);
    largest_count = std::max(largest_count, b.thresholds.back().processes);
  }
  const NoiseRecommendation& r = *analysis.recommendation;
  std::string text = fmt::format(
      "Over {} fresh processes the process medians spread by up to {} ({}), with a "
      "between-process CV of up to {}.",
      analysis.processes, percent(widest->spread), widest->name, percent(largest_cv));
  const bool several = std::count_if(analysis.benchmarks.begin(), analysis.benchmarks.end(),
                                     [](const BenchmarkNoise& b) { return b.analysed(); }) > 1;
  const std::string rate = fmt::format("{:g}%", s.false_alarm_rate * 100.0);
  const std::string use =
      report.example.empty() ? flags_text(r) : report.example + " " + flags_text(r);
  if (report.side_by_side) {
    text += fmt::format(
        " A Google Benchmark suite's two builds are compared side by side (benchkit compare "
        "OLD_BINARY NEW_BINARY), in paired rounds of fresh processes whose intervals take this "
        "spread in: the thresholds above are those of comparing saved process medians, which "
        "that comparison does not do, and they need no --noise-threshold of their own (±{} "
        "stays the band of \"unchanged\").",
        percent(s.target_threshold));
  } else if (r.within_target) {
    text += fmt::format(
        " For at most {} false alarms per benchmark, compare with {}: {} a side is the fewest "
        "at which {} threshold is within ±{}{}.",
        rate, use, processes_text(r.processes), several ? "every benchmark's" : "the benchmark's",
        percent(s.target_threshold),
        several ? fmt::format(" ({} needs the most)", r.set_by) : std::string());
  } else {
    // Past 1 (the most --noise-threshold accepts) thresholds are given as percentages.
    const bool beyond = r.threshold > 1.0;
    auto shown = [beyond](double threshold) {
      return beyond ? plus_minus(threshold) : fmt::format("{:.3f}", threshold);
    };
    text += fmt::format(
        " No process count up to {} a side brings {} within ±{} on this machine. At {} a side, "
        "the bench binary's default for baselines, {} needs {} {}",
        largest_count, several ? "every benchmark" : "the benchmark", percent(s.target_threshold),
        processes_text(r.processes), r.set_by, beyond ? "a threshold of" : "--noise-threshold",
        shown(r.threshold));
    if (r.threshold_without_noisiest) {
      text += fmt::format(" (the others {} or less)", shown(*r.threshold_without_noisiest));
    }
    text += ".";
    if (!beyond) {
      text +=
          fmt::format(" For at most {} false alarms per benchmark, compare with {}.", rate, use);
    } else {
      text += fmt::format(
          " No threshold a comparison accepts (at most 1.0) is enough for {}: leave it out of "
          "comparisons (--filter) or find out why its speed changes between runs.",
          r.set_by);
      if (r.threshold_without_noisiest && *r.threshold_without_noisiest <= 1.0) {
        NoiseRecommendation others = r;
        others.threshold = *r.threshold_without_noisiest;
        text += fmt::format(" Without it, compare with {}.",
                            report.example.empty() ? flags_text(others)
                                                   : report.example + " " + flags_text(others));
      }
    }
  }
  if (!r.within_target && !report.side_by_side) {
    text +=
        " Smaller changes need a quieter machine (benchkit system says what adds noise here) or "
        "more processes.";
  }
  if (analysis.processes < 5) {
    text += fmt::format(
        " With only {} processes the thresholds are wide; --processes 10 or more narrows them.",
        analysis.processes);
  }
  return text;
}

std::string render_noise(const NoiseReport& report, Format format, Options options) {
  return make_reporter(format, options)->render(Document{.noise = &report});
}

}  // namespace benchkit::report
