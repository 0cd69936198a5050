// The versioned benchkit comparison JSON (`benchkit compare|ab --format json`, docs/ci.md):
// writing it, and reading it back for `benchkit merge`, which joins the comparisons of a suite's
// shards and judges their rows again as one suite. Both directions live in comparison_json.cpp,
// side by side, field for field.
//
// Version 2 keeps what the suite's verdicts are made from (analysis::judge_suite): for each
// compared row whether it took part in the suite's test, its unadjusted p-value, interval,
// metric, sequential level and the note before the verdict; the builds compared and the shard.
// Version 1 documents lack these and are refused with a message that says so.
#pragma once

#include <string>
#include <string_view>

#include "model/comparison.hpp"
#include "model/error.hpp"

namespace benchkit::formats {

inline constexpr const char* kComparisonSchema = "benchkit/comparison";
inline constexpr int kComparisonVersion = 2;

// The document: schema, version, settings, summary, notes, builds, shard, one entry per row in
// the comparison's order. Indented, stable key order, ends with a newline; invalid UTF-8 in a
// name or note is replaced, so the text is always JSON.
std::string comparison_to_json(const model::Comparison& comparison);

// Reads what comparison_to_json wrote. `origin` (a path) starts every error message, which
// names the field and what to do.
model::Result<model::Comparison> comparison_from_json(std::string_view text,
                                                      const std::string& origin);

// Whether `text` is a JSON object whose "schema" is kComparisonSchema (whatever its version):
// how `benchkit merge` tells comparisons from result files. False for anything else, never
// throws.
bool is_comparison_document(std::string_view text);

}  // namespace benchkit::formats
