// The versioned benchkit result JSON (docs/result-format.md): writing and reading it, a whole
// run or one benchmark. Each struct's fields are described once, in result_json.cpp, and that
// one description drives both directions.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "benchkit/result.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

// Serialises a run: schema "benchkit/result", version 1, context, every benchmark with its raw
// samples, estimates and diagnostics. Indented, stable key order, ends with a newline.
std::string to_json(const RunResult& run);
// The same text, written to `out` as it is serialised instead of returned whole (the text of a
// run with many samples is as large as the run itself, and its tree three times larger); it is
// what ordered_json::dump(2) prints for the document, and to_json returns it.
// Layout::compact writes it on one line without spaces or a final newline (a worker's results
// to its supervisor: half the size); from_json reads both.
enum class Layout { indented, compact };
void write_json(const RunResult& run, std::ostream& out, Layout layout = Layout::indented);

// Parses a result document. `origin` names the source (a file path) in error messages.
// The smallest valid document holds only schema, version and benchmarks[].name with
// benchmarks[].samples[].{iters, ns}; estimates absent from the file are left empty (all zero)
// and `estimates_present` below says so, so the caller can recompute them from the samples.
struct ParsedRun {
  RunResult run;
  bool estimates_present = false;
};
model::Result<ParsedRun> from_json(std::string_view text, const std::string& origin);
// The same for a document already parsed (formats/result_file.hpp reads the text once to tell
// the formats apart).
model::Result<ParsedRun> from_json_document(const nlohmann::ordered_json& root,
                                            const std::string& origin);

// One benchmark as it appears in a run's "benchmarks" array, compact: one line without a
// newline (newlines inside strings are escaped), so that a worker process can stream its
// results one per line. Carries no schema or version: the stream that holds it must.
std::string benchmark_to_json(const BenchmarkResult& benchmark);

// Parses what benchmark_to_json wrote, with the same rules as one entry of a run's
// "benchmarks" (name and samples required; absent estimates left all zero). Error messages
// start with `origin` and give the path inside the benchmark ("samples[2].ns: ...").
model::Result<BenchmarkResult> benchmark_from_json(std::string_view text,
                                                   const std::string& origin);

}  // namespace benchkit::formats
