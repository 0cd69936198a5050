// hyperfine's JSON (--export-json FILE), read as command results (docs/interop.md).
//
// Each entry of "results" becomes a benchmark of kind "command" named by its command (or its
// --command-name): each entry of times[] a sample (seconds, one iteration), with the exit code
// and, when the file has them (hyperfine 1.16 and later), the peak memory of that run.
// hyperfine records user and system time only as means over the runs: they go into the
// benchmark's counters "user_ns" and "system_ns". A parameter scan's "parameters" become the
// benchmark's parameters.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

// Whether `root` has the shape of a hyperfine export: an object whose "results" is an array
// (empty, or whose first entry has "command" and "times").
bool is_hyperfine_document(const nlohmann::ordered_json& root);

// Reads a parsed hyperfine export; `origin` (a path) starts every error message. A command
// measured only once (hyperfine writes a null stddev) is refused: one run has no spread, and
// the message says to run hyperfine with --runs 2 or more. Estimates are left empty.
model::Result<RunResult> hyperfine_from_document(const nlohmann::ordered_json& root,
                                                 const std::string& origin);

// Parses and reads hyperfine JSON text.
model::Result<RunResult> from_hyperfine_json(std::string_view text, const std::string& origin);

}  // namespace benchkit::formats
