// Google Benchmark's JSON (--benchmark_out=FILE --benchmark_out_format=json), both directions
// (docs/interop.md has the mapping field by field).
//
// Reading: each iteration row (one repetition) becomes a sample of `iterations` iterations that
// took real_time × iterations, numbered as its own process (Google Benchmark measures each
// repetition afresh, and the process is benchkit's unit of variation); cpu_time goes into the
// sample's "cpu_ns" counter. Aggregate rows (mean, median, ...) are used only for a benchmark
// that has no iteration rows (--benchmark_report_aggregates_only), as one sample with a
// diagnostic that says so. error_occurred and skipped rows make the benchmark invalid (a
// failure). The context block becomes the run's context. Bare NaN and Infinity are accepted.
//
// Writing: a document that github-action-benchmark's `googlecpp` tool, Bencher's `cpp_google`
// adapter and Google Benchmark's tools/compare.py read: one iteration row per sample (its
// repetitions), then mean, median, stddev and cv aggregate rows taken from benchkit's estimates.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

// The json_schema_version this reader knows (Google Benchmark 1.8 and later write it; earlier
// versions write none, which reads as 1).
inline constexpr int kGbenchSchemaVersion = 1;

// Whether `root` has the shape of a Google Benchmark document: an object with a "benchmarks"
// array and a "context" object, and no "schema" key (benchkit's own files have one).
bool is_gbench_document(const nlohmann::ordered_json& root);

// Reads a parsed Google Benchmark document; `origin` (a path) starts every error message.
// Estimates are left empty: compute them from the samples.
model::Result<RunResult> gbench_from_document(const nlohmann::ordered_json& root,
                                              const std::string& origin);

// Parses and reads Google Benchmark JSON text.
model::Result<RunResult> from_gbench_json(std::string_view text, const std::string& origin);

// Google Benchmark-compatible JSON of `run`, indented, ending with a newline. Estimates must be
// computed (the aggregate rows are read from them).
std::string to_gbench_json(const RunResult& run);

}  // namespace benchkit::formats
