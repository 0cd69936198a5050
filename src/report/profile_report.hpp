// A profile (model/profile.hpp) as the console prints it, as JSON, and as a section of the HTML
// report (docs/profiling.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.hpp"
#include "report/html_reporter.hpp"

namespace benchkit::report {

// The summary for a terminal: what ran, the top `top` functions by exclusive and by inclusive
// cost with file:line, the peak heap and its sites, the system call table, the notes and the
// files kept.
std::string profile_console(const model::Profile& profile, std::size_t top = 15);

// Every part, as one JSON object ("benchkit_profile": 1 names the format).
std::string profile_json(const model::Profile& profile);

// The sections of the HTML page (flame graph, tables, notes), for html::render_page.
std::vector<html::ChartSection> profile_sections(const model::Profile& profile,
                                                 std::size_t top = 30);

// The whole HTML page of `benchkit profile`: the run's header (its command line) and the
// profile's sections.
std::string profile_page(const model::Profile& profile, const std::string& command_line);

// What a bench binary's --profile-time says on stderr before the routine runs ("profiling NAME
// in process PID: ...") and after it (its iterations and seconds in the routine), one line each.
std::string profiling_started(const std::string& benchmark, long process_id,
                              const std::string& duration);
std::string profiled_summary(const std::string& benchmark, std::uint64_t iterations,
                             double timed_ns);

// "12.3 M", "4.56 k", "789": a count in three figures.
std::string short_count(double value);

}  // namespace benchkit::report
