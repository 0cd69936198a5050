#include "report/profile_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace benchkit::report {
namespace {

std::string where(const model::ProfileFunction& function) {
  if (function.file.empty()) return "";
  return function.line > 0 ? fmt::format("{}:{}", function.file, function.line) : function.file;
}

std::string share(double value, double total) {
  return total > 0.0 ? fmt::format("{:.1f}%", 100.0 * value / total) : "";
}

std::string bytes_text(double bytes) {
  const double a = std::fabs(bytes);
  if (a >= 1024.0 * 1024.0 * 1024.0) return fmt::format("{:.2f} GiB", bytes / (1 << 30));
  if (a >= 1024.0 * 1024.0) return fmt::format("{:.2f} MiB", bytes / (1 << 20));
  if (a >= 1024.0) return fmt::format("{:.2f} KiB", bytes / 1024.0);
  return fmt::format("{:.0f} B", bytes);
}

std::vector<const model::ProfileFunction*> by_inclusive(const model::Profile& profile) {
  std::vector<const model::ProfileFunction*> sorted;
  for (const auto& function : profile.functions) sorted.push_back(&function);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->inclusive > b->inclusive; });
  return sorted;
}

std::string per_iteration(double value, std::uint64_t iterations) {
  return iterations > 0 ? short_count(value / static_cast<double>(iterations)) : "";
}

// The tables every output shows, as rows of text.
std::vector<html::TextTable> tables_of(const model::Profile& profile, std::size_t top) {
  std::vector<html::TextTable> tables;
  if (!profile.functions.empty()) {
    html::TextTable exclusive{fmt::format("Top functions by exclusive {}", profile.unit),
                              {"function", "exclusive", "share", "per iteration", "file:line"},
                              {}};
    for (std::size_t i = 0; i < profile.functions.size() && i < top; ++i) {
      const auto& f = profile.functions[i];
      exclusive.rows.push_back({f.name, short_count(f.exclusive), share(f.exclusive, profile.total),
                                per_iteration(f.exclusive, profile.iterations), where(f)});
    }
    tables.push_back(std::move(exclusive));
    html::TextTable inclusive{fmt::format("Top functions by inclusive {}", profile.unit),
                              {"function", "inclusive", "share", "per iteration", "file:line"},
                              {}};
    const auto sorted = by_inclusive(profile);
    for (std::size_t i = 0; i < sorted.size() && i < top; ++i) {
      const auto& f = *sorted[i];
      inclusive.rows.push_back({f.name, short_count(f.inclusive), share(f.inclusive, profile.total),
                                per_iteration(f.inclusive, profile.iterations), where(f)});
    }
    tables.push_back(std::move(inclusive));
  }
  if (!profile.peak_sites.empty()) {
    html::TextTable sites{"Allocation sites behind the peak heap",
                          {"site", "bytes at the peak", "share", "where"},
                          {}};
    for (std::size_t i = 0; i < profile.peak_sites.size() && i < top; ++i) {
      const auto& s = profile.peak_sites[i];
      sites.rows.push_back({s.function, bytes_text(s.bytes),
                            share(s.bytes, profile.peak_heap_bytes.value_or(0.0)), s.location});
    }
    tables.push_back(std::move(sites));
  }
  if (!profile.system_calls.empty()) {
    html::TextTable calls{"System calls in the measured region",
                          {"system call", "calls", "per iteration", "errors", "seconds"},
                          {}};
    for (const auto& row : profile.system_calls) {
      calls.rows.push_back({row.name, std::to_string(row.calls),
                            profile.iterations > 0
                                ? fmt::format("{:.3g}", static_cast<double>(row.calls) /
                                                            static_cast<double>(profile.iterations))
                                : "",
                            std::to_string(row.errors), fmt::format("{:.6f}", row.seconds)});
    }
    tables.push_back(std::move(calls));
  }
  return tables;
}

std::vector<std::string> facts_of(const model::Profile& profile) {
  std::vector<std::string> facts;
  facts.push_back(
      fmt::format("{} iterations of the routine in the profiled region ({:.3f} s in "
                  "the routine, under the tool)",
                  profile.iterations, profile.routine_seconds));
  if (profile.total > 0.0) {
    facts.push_back(fmt::format("{} {} in the region, {} per iteration", short_count(profile.total),
                                profile.unit, per_iteration(profile.total, profile.iterations)));
  }
  if (profile.peak_heap_bytes) {
    facts.push_back(fmt::format("peak heap: {}", bytes_text(*profile.peak_heap_bytes)));
  }
  if (profile.allocations_per_iteration) {
    facts.push_back(fmt::format(
        "allocations per iteration: {:.3g}{}", *profile.allocations_per_iteration,
        profile.allocated_bytes_per_iteration
            ? fmt::format(" ({} per iteration)", bytes_text(*profile.allocated_bytes_per_iteration))
            : ""));
  }
  if (profile.tool == model::ProfileTool::strace && profile.system_calls.empty()) {
    facts.push_back("no system call in the measured region");
  }
  return facts;
}

}  // namespace

std::string short_count(double value) {
  const double a = std::fabs(value);
  if (a >= 1e9) return fmt::format("{:.3g} G", value / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g} M", value / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g} k", value / 1e3);
  if (a >= 100 || a == std::floor(a)) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

std::string profile_console(const model::Profile& profile, std::size_t top) {
  std::string text = fmt::format("{} of {} ({})\n", model::profile_tool_name(profile.tool),
                                 profile.benchmark, profile.binary);
  for (const std::string& fact : facts_of(profile)) text += "  " + fact + "\n";
  for (const html::TextTable& table : tables_of(profile, top)) {
    text += "\n" + table.title + "\n";
    std::vector<std::size_t> widths(table.columns.size());
    for (std::size_t c = 0; c < table.columns.size(); ++c) widths[c] = table.columns[c].size();
    for (const auto& row : table.rows) {
      for (std::size_t c = 0; c < row.size(); ++c) {
        widths[c] = std::max(widths[c], std::min<std::size_t>(row[c].size(), 60));
      }
    }
    auto line = [&](const std::vector<std::string>& cells) {
      std::string out = " ";
      for (std::size_t c = 0; c < cells.size(); ++c) {
        std::string cell = cells[c];
        if (cell.size() > 60) cell = cell.substr(0, 57) + "...";
        // Names left, numbers right; the last column (a location) left.
        const bool left = c == 0 || c + 1 == cells.size();
        out += " " + (left ? fmt::format("{:<{}}", cell, widths[c])
                           : fmt::format("{:>{}}", cell, widths[c]));
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      return out + "\n";
    };
    text += line(table.columns);
    for (const auto& row : table.rows) text += line(row);
  }
  if (!profile.notes.empty()) {
    text += "\n";
    for (const std::string& note : profile.notes) text += "note: " + note + "\n";
  }
  if (!profile.files.empty()) {
    text += "\nfiles kept in " + profile.out_dir + ":";
    for (const std::string& file : profile.files) {
      text += " " + file.substr(file.rfind('/') + 1);
    }
    text += "\n";
  }
  return text;
}

std::string profile_json(const model::Profile& profile) {
  using Json = nlohmann::json;
  Json json = {{"benchkit_profile", 1},
               {"tool", model::profile_tool_name(profile.tool)},
               {"benchmark", profile.benchmark},
               {"binary", profile.binary},
               {"unit", profile.unit},
               {"iterations", profile.iterations},
               {"routine_seconds", profile.routine_seconds},
               {"total", profile.total},
               {"notes", profile.notes},
               {"files", profile.files},
               {"out_dir", profile.out_dir}};
  Json functions = Json::array();
  for (const auto& f : profile.functions) {
    functions.push_back({{"name", f.name},
                         {"file", f.file},
                         {"line", f.line},
                         {"exclusive", f.exclusive},
                         {"inclusive", f.inclusive}});
  }
  json["functions"] = std::move(functions);
  json["peak_heap_bytes"] = profile.peak_heap_bytes ? Json(*profile.peak_heap_bytes) : Json();
  Json sites = Json::array();
  for (const auto& s : profile.peak_sites) {
    sites.push_back({{"function", s.function},
                     {"location", s.location},
                     {"bytes", s.bytes},
                     {"stack", s.stack}});
  }
  json["peak_sites"] = std::move(sites);
  json["allocations_per_iteration"] =
      profile.allocations_per_iteration ? Json(*profile.allocations_per_iteration) : Json();
  json["allocated_bytes_per_iteration"] =
      profile.allocated_bytes_per_iteration ? Json(*profile.allocated_bytes_per_iteration) : Json();
  Json calls = Json::array();
  for (const auto& row : profile.system_calls) {
    calls.push_back({{"name", row.name},
                     {"calls", row.calls},
                     {"errors", row.errors},
                     {"seconds", row.seconds}});
  }
  json["system_calls"] = std::move(calls);
  Json stacks = Json::array();
  for (const auto& stack : profile.stacks) {
    stacks.push_back({{"frames", stack.frames}, {"value", stack.value}});
  }
  json["stacks"] = std::move(stacks);
  return json.dump(2) + "\n";
}

std::vector<html::ChartSection> profile_sections(const model::Profile& profile, std::size_t top) {
  html::ChartSection section;
  section.id = "profile";
  section.title =
      fmt::format("Profile of {} ({})", profile.benchmark, model::profile_tool_name(profile.tool));
  std::string intro;
  for (const std::string& fact : facts_of(profile)) intro += (intro.empty() ? "" : "; ") + fact;
  section.intro = intro + ".";
  if (!profile.stacks.empty()) {
    section.flame =
        html::FlameChart{fmt::format("Flame graph: {} of {}", profile.unit, profile.benchmark),
                         profile.unit, profile.stacks};
  }
  section.tables = tables_of(profile, top);
  section.notes = profile.notes;
  for (const std::string& file : profile.files) section.notes.push_back("kept: " + file);
  return {section};
}

std::string profiling_started(const std::string& benchmark, long process_id,
                              const std::string& duration) {
  return fmt::format(
      "profiling {} in process {}: its set-up, one warm-up iteration, then its routine alone for "
      "{}\n",
      benchmark, process_id, duration);
}

std::string profiled_summary(const std::string& benchmark, std::uint64_t iterations,
                             double timed_ns) {
  return fmt::format("profiled {}: {} iterations, {:.3f} s in the routine\n", benchmark, iterations,
                     timed_ns / 1e9);
}

std::string profile_page(const model::Profile& profile, const std::string& command_line) {
  RunResult run;
  run.context.command_line = command_line;
  return html::render_page(Document{.results = &run}, profile_sections(profile));
}

}  // namespace benchkit::report
