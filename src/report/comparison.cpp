#include "report/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/diagnostics.hpp"
#include "analysis/power_plan.hpp"
#include "analysis/round_budget.hpp"
#include "formats/comparison_json.hpp"
#include "model/merge.hpp"
#include "report/parts.hpp"

namespace benchkit::report {
namespace {

using analysis::BenchmarkComparison;
using analysis::Verdict;

std::string change_percent(double ratio) {
  return fmt::format("{:+.1f}%", (ratio - 1.0) * 100.0);
}

// A side of a row that failed before it measured anything: no time to show, not "0 ns" (a snappy
// benchmark whose input file was missing read "0 ns -> 0 ns").
bool measured_nothing(const BenchmarkComparison& c, double median) {
  return c.verdict == Verdict::invalid && median <= 0;
}

// Whether the two sides were measured against each other (not added, removed, invalid or
// skipped).
bool compared(const BenchmarkComparison& c) {
  return c.verdict != Verdict::added && c.verdict != Verdict::removed &&
         c.verdict != Verdict::invalid && c.verdict != Verdict::skipped;
}

std::string change_cell(const BenchmarkComparison& c) {
  if (!compared(c)) return "";
  return change_percent(c.ratio);
}

// A row kept out of the test with its two bounds at the change (each side one process of a
// Google Benchmark file: analysis::compare): it has no interval and no p-value to show.
bool untested_point(const BenchmarkComparison& c) {
  return !c.tested && c.ratio_lower == c.ratio_upper;
}

std::string interval_cell(const BenchmarkComparison& c) {
  if (!compared(c)) return "";
  if (untested_point(c)) return "none";
  return fmt::format("[{}, {}]", change_percent(c.ratio_lower), change_percent(c.ratio_upper));
}

std::string time_cell(double value, bool present, const std::string& metric) {
  return present ? format_measure(value, metric) : "";
}

std::string throughput_cell(const BenchmarkComparison& c) {
  return c.throughput_change ? fmt::format("{:+.1f}%", *c.throughput_change * 100.0) : "";
}

// No p for a row that took no part in the suite's test (runs made apart of one process each: its
// p stayed 1.000 beside -18.1% [-21.3%, -12.8%], which read as a measured p).
std::string p_cell(const BenchmarkComparison& c) {
  if (!compared(c) || !c.tested) return "";
  return c.p_adjusted < 0.001 ? "<0.001" : fmt::format("{:.3f}", c.p_adjusted);
}

// Rows whose rounds were read as an AB/BA crossover (analysis: the two orders differed), how
// many and the largest order effect among them: said once, under the table.
std::string crossover_clause(const std::vector<BenchmarkComparison>& all) {
  std::size_t rows = 0;
  double largest = 0.0;
  for (const BenchmarkComparison& c : all) {
    if (c.baseline_first.empty()) continue;
    ++rows;
    if (c.order_ratio) largest = std::max(largest, std::abs(*c.order_ratio - 1.0));
  }
  if (rows == 0) return {};
  return fmt::format(
      "; {} compared by the order of {} rounds (an AB/BA crossover): a round's second process ran "
      "up to {:.1f}% faster or slower than its first, which the comparison cancels "
      "(docs/verdicts.md)",
      rows == 1 ? std::string("1 benchmark") : fmt::format("{} benchmarks", rows),
      rows == 1 ? "its" : "their", largest * 100.0);
}

std::string settings_line(const analysis::Comparison& comparison) {
  const auto& s = comparison.settings;
  const char* adjustment = s.adjustment == analysis::Adjustment::holm ? "Holm-adjusted"
                           : s.adjustment == analysis::Adjustment::benjamini_hochberg
                               ? "Benjamini–Hochberg-adjusted"
                               : "unadjusted";
  // Counts (a metric) are judged by the count threshold (analysis::noise_threshold_for).
  const auto& all = comparison.benchmarks;
  const bool counts = std::any_of(all.begin(), all.end(),
                                  [](const BenchmarkComparison& c) { return !c.metric.empty(); });
  const bool times = std::any_of(all.begin(), all.end(), [](const BenchmarkComparison& c) {
    return c.metric.empty() && compared(c);
  });
  if (counts && !times) {
    return fmt::format("count threshold ±{:g}%, {} p < {}, {:.0f}% intervals of new/baseline count",
                       s.count_noise_threshold * 100.0, adjustment, s.alpha, s.confidence * 100.0);
  }
  // A paired row's change is the centre of its round ratios, which can differ from the ratio
  // of the two medians beside it (they pool every round's samples): said once, under the table.
  const bool paired = std::any_of(all.begin(), all.end(), [](const BenchmarkComparison& c) {
    return compared(c) && c.design == analysis::Design::paired;
  });
  // So is a row of several processes a side: its change is the ratio of the means of each
  // process's median (every process weighs the same), which one slow process moves apart from
  // the pooled medians (25.5 -> 25.0 µs shown beside +1.4%).
  const bool processes = std::any_of(all.begin(), all.end(), [](const BenchmarkComparison& c) {
    return compared(c) && c.design == analysis::Design::processes;
  });
  std::string line = fmt::format(
      "noise threshold ±{:.1f}%{}, {} p < {}, {:.0f}% intervals of new/baseline time{}{}",
      s.noise_threshold * 100.0,
      counts ? fmt::format(" (counts ±{:g}%)", s.count_noise_threshold * 100.0) : "", adjustment,
      s.alpha, s.confidence * 100.0,
      paired ? "; change, interval and throughput from the rounds' paired ratios (both builds "
               "measured in each round), not from the medians shown, which pool all rounds"
             : "",
      processes ? fmt::format("; {} of several processes a side from the mean of each "
                              "process's median (each process counts once), not from the "
                              "medians shown, which pool all processes",
                              paired ? "rows" : "change, interval and throughput")
                : "");
  line += crossover_clause(all);
  // Side by side, the rounds were looked at as they came: the "95%" of the column does not hold
  // for them (analysis::sequential_levels).
  if (paired && !s.sequential_alpha.empty()) {
    const auto [lowest, highest] =
        std::minmax_element(s.sequential_alpha.begin(), s.sequential_alpha.end());
    // One look only (--max-rounds equal to --rounds): one level, not a range of one.
    const std::string levels =
        fmt::format("{:.2g}", *lowest * 100.0) == fmt::format("{:.2g}", *highest * 100.0)
            ? fmt::format("{:.2g}%", *lowest * 100.0)
            : fmt::format("{:.2g}-{:.2g}%", *lowest * 100.0, *highest * 100.0);
    line += fmt::format(
        "; paired rounds looked at after every round are read at their look's level of a "
        "sequential design instead ({}, docs/verdicts.md)",
        levels);
  }
  if (paired && s.mde > 0.0) {
    line += fmt::format("; rounds planned for {:.0f}% power at a change of {:g}% (--mde)",
                        s.power * 100.0, s.mde * 100.0);
  }
  return line;
}

std::vector<std::vector<std::string>> rows(const analysis::Comparison& comparison) {
  std::vector<std::vector<std::string>> result;
  for (const BenchmarkComparison& c : comparison.benchmarks) {
    // A skipped side has no time; the other side's is shown when it was measured. So is the one
    // side of an added or removed benchmark: side by side, a benchmark of one build alone is
    // not run at all.
    const bool one_side = c.verdict == Verdict::skipped || c.verdict == Verdict::added ||
                          c.verdict == Verdict::removed;
    const auto side = [&c](double median, bool present) {
      return measured_nothing(c, median) ? std::string("failed")
                                         : time_cell(median, present, c.metric);
    };
    result.push_back({c.name,
                      side(c.baseline_median,
                           c.verdict != Verdict::added && !(one_side && c.baseline_median <= 0)),
                      side(c.candidate_median,
                           c.verdict != Verdict::removed && !(one_side && c.candidate_median <= 0)),
                      change_cell(c), interval_cell(c), throughput_cell(c), p_cell(c),
                      to_string(c.verdict)});
  }
  return result;
}

// The rows' notes, a note said alike of several rows of one verdict once (comparing two Google
// Benchmark files of one process each gave 19 identical lines): "NAME" or "N benchmarks (NAME
// and N-1 more)", the verdict, the note. `name` renders a row's name.
struct SharedNote {
  const BenchmarkComparison* first;
  std::size_t count;
};
std::vector<SharedNote> shared_notes(const std::vector<BenchmarkComparison>& all) {
  std::vector<SharedNote> notes;
  for (const BenchmarkComparison& c : all) {
    if (c.note.empty()) continue;
    const auto same = std::find_if(notes.begin(), notes.end(), [&](const SharedNote& n) {
      return n.first->verdict == c.verdict && n.first->note == c.note;
    });
    if (same == notes.end()) {
      notes.push_back({&c, 1});
    } else {
      ++same->count;
    }
  }
  return notes;
}

std::string who(const SharedNote& note, const std::string& name) {
  return note.count == 1
             ? name
             : fmt::format("{} benchmarks ({} and {} more)", note.count, name, note.count - 1);
}

// One line for every row (of a benchmark, not a whole command) whose new build's run has the
// diagnostic `code`: "NAME [code]: TEXT", or "N benchmarks (NAME and N-1 more) [code]: TEXT";
// nothing when none has it.
std::string rows_with(const std::vector<BenchmarkComparison>& all, std::string_view code,
                      std::string_view text) {
  std::vector<std::string> names;
  for (const BenchmarkComparison& c : all) {
    if (c.command) continue;
    if (c.candidate_has(code)) names.push_back(c.name);
  }
  if (names.empty()) return {};
  return fmt::format("{} [{}]: {}\n",
                     names.size() == 1 ? names.front()
                                       : fmt::format("{} benchmarks ({} and {} more)", names.size(),
                                                     names.front(), names.size() - 1),
                     code, text);
}

// What the rows' own runs found that their verdicts cannot show, one line a finding before the
// rows' notes: work optimised away in the new build (below_resolution: whatever the verdict, it
// compares nothing; a whole command's is a time its tool could not resolve, which its row's note
// says), and a name several benchmarks of a Google Benchmark suite share (duplicate_name: the row
// pools them, and frozen's two BM_StrNotInStdArray ran 447 and 294 ns; the JSON alone said so).
std::string findings_lines(const std::vector<BenchmarkComparison>& all) {
  return rows_with(all, analysis::code::below_resolution,
                   "less than one CPU cycle an iteration in the new build, so the work was "
                   "optimised away and the comparison times an empty loop; pass the inputs and "
                   "results through DoNotOptimize") +
         rows_with(all, model::kDuplicateName,
                   "several benchmarks of the suite share the name, and the row pools their "
                   "samples, so its change and verdict mix them; give each its own name (the name "
                   "given to RegisterBenchmark, a BENCHMARK_CAPTURE's label, an Arg)");
}

// When several paired rows stayed undecided, one line for them all before their notes: how much
// their rounds scattered and what more rounds would cost in all, so that a machine noisy for
// every benchmark is said once and the price of an answer is one number. Nothing for fewer than
// two such rows. (The notes of the rows say what drove each one's width.)
std::string undecided_line(const std::vector<BenchmarkComparison>& all) {
  std::size_t undecided = 0;
  std::size_t settled_by_more = 0;
  std::size_t more_rounds = 0;
  std::size_t most_rounds = 0;  // of the rows --max-rounds can reach
  std::size_t out_of_reach = 0;
  double more_ns = 0.0;
  bool timed = true;
  std::optional<double> low;
  double high = 0.0;
  for (const BenchmarkComparison& c : all) {
    if (c.verdict != Verdict::inconclusive || c.round_ratios.empty()) continue;
    ++undecided;
    if (const auto scatter = analysis::typical_round_scatter(c.round_ratios, c.baseline_first)) {
      low = std::min(low.value_or(*scatter), *scatter);
      high = std::max(high, *scatter);
    }
    if (!c.more_rounds) continue;
    ++settled_by_more;
    more_rounds += *c.more_rounds;
    if (c.pairs + *c.more_rounds > analysis::kMostRoundsAllowed) {
      ++out_of_reach;
    } else {
      most_rounds = std::max(most_rounds, c.pairs + *c.more_rounds);
    }
    timed = timed && c.more_time_ns.has_value();
    more_ns += c.more_time_ns.value_or(0.0);
  }
  if (undecided < 2) return {};
  std::string line = fmt::format("{} benchmarks compared in rounds stayed undecided", undecided);
  if (low) {
    line += *low < high ? fmt::format(", a typical round of each scattering {:.1f}-{:.1f}%",
                                      *low * 100.0, high * 100.0)
                        : fmt::format(", a typical round of each scattering {:.1f}%", high * 100.0);
  }
  if (settled_by_more > 0) {
    line += fmt::format("; about {} more rounds in all would settle {} of them{}", more_rounds,
                        settled_by_more == undecided ? "all" : std::to_string(settled_by_more),
                        timed ? fmt::format(", about {} more", analysis::describe_duration(more_ns))
                              : std::string());
    // A --max-rounds to suggest for those it can reach; the others are out of this machine's
    // reach at their threshold (their notes say so).
    if (out_of_reach == 0) {
      line += fmt::format(" (--max-rounds {})", most_rounds);
    } else {
      line += fmt::format(
          " ({}{} more than --max-rounds can be set to ({}): out of reach at their noise "
          "threshold)",
          most_rounds > 0 ? fmt::format("--max-rounds {} for some; ", most_rounds) : "",
          out_of_reach == 1 ? "1 needs" : fmt::format("{} need", out_of_reach),
          analysis::kMostRoundsAllowed);
    }
  }
  if (settled_by_more < undecided) {
    const std::size_t on_edge = undecided - settled_by_more;
    line += fmt::format("; {} on an edge of the noise threshold, which no number of rounds settles",
                        on_edge == 1 ? "1 lies" : fmt::format("{} lie", on_edge));
  }
  return line + "\n";
}

const std::vector<std::string> kHeaders = {"benchmark", "baseline",   "new",      "change",
                                           "95% CI",    "throughput", "p (adj.)", "verdict"};

}  // namespace

std::string parts::comparison_console(const analysis::Comparison& comparison, Options options) {
  auto table = rows(comparison);
  std::vector<std::string> headers = kHeaders;
  drop_empty_column(headers, table, 5);  // no row with a throughput change
  std::vector<std::size_t> widths(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) widths[c] = display_width(headers[c]);
  for (const auto& row : table) {
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], display_width(row[c]));
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& cells, const BenchmarkComparison* c) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool right = i >= 1 && i <= 3;
      const std::string fill(widths[i] - display_width(cells[i]), ' ');
      std::string cell = right ? fill + cells[i] : cells[i] + fill;
      if (options.color && c && i == cells.size() - 1) {
        if (c->verdict == Verdict::regressed) cell = fmt::format("\033[31;1m{}\033[0m", cell);
        if (c->verdict == Verdict::improved) cell = fmt::format("\033[32;1m{}\033[0m", cell);
        if (c->verdict == Verdict::inconclusive) cell = fmt::format("\033[33m{}\033[0m", cell);
      }
      if (i) line += "  ";
      line += cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  if (!comparison.context_warning.empty()) {
    out += fmt::format("warning: {}\n\n", comparison.context_warning);
  }
  if (!comparison.design_warning.empty()) {
    out += fmt::format("note: {}\n\n", comparison.design_warning);
  }
  if (!comparison.method_note.empty()) out += fmt::format("note: {}\n\n", comparison.method_note);
  if (!comparison.speed_note.empty()) out += fmt::format("note: {}\n\n", comparison.speed_note);
  emit(headers, nullptr);
  for (std::size_t i = 0; i < table.size(); ++i) emit(table[i], &comparison.benchmarks[i]);
  out += fmt::format("\n{} ({})\n", comparison_summary(comparison), settings_line(comparison));
  out += undecided_line(comparison.benchmarks);
  for (const SharedNote& note : shared_notes(comparison.benchmarks)) {
    out += fmt::format("{} [{}]: {}\n", who(note, note.first->name), to_string(note.first->verdict),
                       note.first->note);
  }
  out += findings_lines(comparison.benchmarks);
  return out;
}

std::string parts::comparison_markdown(const analysis::Comparison& comparison) {
  std::string head = fmt::format("**{}**\n\n", comparison_summary(comparison));
  if (!comparison.context_warning.empty()) {
    head += fmt::format("> ⚠️ {}\n\n", comparison.context_warning);
  }
  if (!comparison.design_warning.empty()) {
    head += fmt::format("> {}\n\n", comparison.design_warning);
  }
  if (!comparison.method_note.empty()) head += fmt::format("> {}\n\n", comparison.method_note);
  if (!comparison.speed_note.empty()) head += fmt::format("> {}\n\n", comparison.speed_note);
  const std::string table_head =
      "| benchmark | baseline | new | change | 95% CI | throughput | p (adj.) | verdict |\n"
      "|---|---:|---:|---:|---|---:|---:|---|\n";
  const auto table = rows(comparison);
  std::vector<std::string> changed;
  std::vector<std::string> others;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& row = table[i];
    const Verdict verdict = comparison.benchmarks[i].verdict;
    const bool decided = verdict == Verdict::regressed || verdict == Verdict::improved;
    const std::string line = fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_code(row[0]), row[1], row[2],
        row[3], row[4], row[5], row[6], decided ? fmt::format("**{}**", row[7]) : row[7]);
    (decided ? changed : others).push_back(line);
  }
  std::vector<std::string> notes;
  // What the rows' runs found is said before the rows' notes, as on the console.
  const std::string findings = findings_lines(comparison.benchmarks);
  for (std::size_t start = 0; start < findings.size();) {
    const std::size_t end = findings.find('\n', start);
    notes.push_back("- " + findings.substr(start, end + 1 - start));
    start = end + 1;
  }
  for (const SharedNote& note : shared_notes(comparison.benchmarks)) {
    notes.push_back(
        fmt::format("- {}: {}\n", who(note, markdown_code(note.first->name)), note.first->note));
  }
  const std::string method = fmt::format("\n<sub>{}</sub>\n", settings_line(comparison));
  const std::string undecided = undecided_line(comparison.benchmarks);
  // What is always written, and room for the line that says what was left out.
  constexpr std::size_t kTruncationLineRoom = 300;
  const std::size_t fixed =
      head.size() + 2 * table_head.size() + method.size() + undecided.size() + 120;
  std::size_t budget = kMarkdownCommentLimit > fixed + kTruncationLineRoom
                           ? kMarkdownCommentLimit - fixed - kTruncationLineRoom
                           : 0;
  std::size_t left_out = 0;
  // Rows in order of importance: the changed benchmarks, then the others, then the notes.
  auto take = [&](const std::vector<std::string>& lines) {
    std::string kept;
    for (const std::string& line : lines) {
      if (line.size() > budget) {
        ++left_out;
        continue;
      }
      budget -= line.size();
      kept += line;
    }
    return kept;
  };
  const std::string changed_rows = take(changed);
  const std::string other_rows = take(others);
  const std::size_t rows_left_out = left_out;
  const std::string note_lines = take(notes);
  const std::size_t notes_left_out = left_out - rows_left_out;

  std::string out = head;
  if (!changed.empty()) {
    out += table_head + changed_rows;
  } else {
    out += "No benchmark regressed or improved beyond the noise threshold.\n";
  }
  if (!others.empty()) {
    out += fmt::format(
        "\n<details><summary>{} other benchmark{} (inconclusive, unchanged, "
        "added, removed or invalid)</summary>\n\n",
        others.size(), others.size() == 1 ? "" : "s");
    out += table_head + other_rows + "\n</details>\n";
  }
  out += method;
  if (!undecided.empty()) out += "\n" + undecided;
  if (!note_lines.empty()) out += "\n" + note_lines;
  if (left_out > 0) {
    out += fmt::format(
        "\n*Truncated: {} row{} and {} note{} left out to keep this comment under {} "
        "characters; the full comparison is in --format json or html.*\n",
        rows_left_out, rows_left_out == 1 ? "" : "s", notes_left_out,
        notes_left_out == 1 ? "" : "s", kMarkdownCommentLimit);
  }
  return out;
}

std::string parts::comparison_json(const analysis::Comparison& comparison) {
  return formats::comparison_to_json(comparison);
}

std::string parts::comparison_csv(const analysis::Comparison& comparison) {
  std::string out = "name,baseline_ns,new_ns,ratio,ratio_lower,ratio_upper,p_adjusted,verdict\n";
  for (const BenchmarkComparison& c : comparison.benchmarks) {
    const std::string name = csv_quote(c.name);
    const auto time = [&c](double median) {
      return measured_nothing(c, median) ? std::string() : fmt::format("{}", median);
    };
    out += fmt::format("{},{},{},{},{},{},{},{}\n", name, time(c.baseline_median),
                       time(c.candidate_median), c.ratio, c.ratio_lower, c.ratio_upper,
                       c.p_adjusted, to_string(c.verdict));
  }
  return out;
}

std::string comparison_summary(const analysis::Comparison& comparison) {
  std::string text =
      fmt::format("{} regressed, {} improved, {} inconclusive, {} unchanged",
                  comparison.count(Verdict::regressed), comparison.count(Verdict::improved),
                  comparison.count(Verdict::inconclusive), comparison.count(Verdict::unchanged));
  if (comparison.count(Verdict::added)) {
    text += fmt::format(", {} added", comparison.count(Verdict::added));
  }
  if (comparison.count(Verdict::removed)) {
    text += fmt::format(", {} removed", comparison.count(Verdict::removed));
  }
  if (comparison.count(Verdict::invalid)) {
    text += fmt::format(", {} invalid", comparison.count(Verdict::invalid));
  }
  if (comparison.count(Verdict::skipped)) {
    text += fmt::format(", {} skipped", comparison.count(Verdict::skipped));
  }
  return text;
}

std::string render_comparison(const analysis::Comparison& comparison, Format format,
                              Options options) {
  return make_reporter(format, options)->render(Document{.comparison = &comparison});
}

}  // namespace benchkit::report
