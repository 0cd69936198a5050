// Fingerprints of where and how a result was measured, so that `compare` can say when two
// results come from different machines or builds, and which fields differ.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"

namespace benchkit::system {

struct Fingerprint {
  // Field name -> value; a field the context does not know is left out (never compared).
  std::map<std::string, std::string> fields;
  // 16 hex digits of a hash of the fields: equal fields give equal ids, on every platform.
  std::string id() const;
};

// cpu_model, logical_cpus and kernel from the context (and the host name when it has neither
// model nor kernel: a Google Benchmark file's); memory and virtualization from `facts` (the
// output of machine_facts(), stored alongside the context).
Fingerprint machine_fingerprint(const Context& context,
                                const std::map<std::string, std::string>& facts = {});

// compiler, build_type, flags, optimized, assertions of the benchmark binary.
Fingerprint build_fingerprint(const Context& context);

struct FieldDifference {
  std::string fingerprint;  // "machine" or "build"
  std::string field;        // e.g. "cpu_model"
  std::string left;
  std::string right;
};

// The fields present on both sides whose values differ, in field order. A field known on only
// one side (an older result file, say) is not a difference: nothing can be said about it.
std::vector<FieldDifference> differing_fields(const Fingerprint& left, const Fingerprint& right,
                                              std::string_view fingerprint_name);

// Machine differences then build differences between two results' contexts.
std::vector<FieldDifference> compare_contexts(
    const Context& left, const Context& right,
    const std::map<std::string, std::string>& left_facts = {},
    const std::map<std::string, std::string>& right_facts = {});

// One line for `compare`, e.g. "results differ in machine (cpu_model: A vs B; kernel: ...) and
// build (build_type: Release vs Debug): compare like with like"; empty when nothing differs.
std::string describe_differences(const std::vector<FieldDifference>& differences);

}  // namespace benchkit::system
