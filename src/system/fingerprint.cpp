#include "system/fingerprint.hpp"

#include <cstdint>
#include <cstdio>

namespace benchkit::system {
namespace {

void put(Fingerprint& fingerprint, const std::string& field, const std::string& value) {
  if (!value.empty()) fingerprint.fields[field] = value;
}

std::string fact(const std::map<std::string, std::string>& facts, const std::string& key) {
  const auto it = facts.find(key);
  return it == facts.end() ? std::string() : it->second;
}

}  // namespace

std::string Fingerprint::id() const {
  // 64-bit FNV-1a: stable across platforms and library versions (unlike std::hash), and a
  // fingerprint needs to tell fields apart, not resist an attacker.
  constexpr std::uint64_t kOffsetBasis = 14695981039346656037ULL;
  constexpr std::uint64_t kPrime = 1099511628211ULL;
  std::uint64_t hash = kOffsetBasis;
  auto mix = [&hash](const std::string& text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= kPrime;
    }
    hash ^= 0xFF;  // a separator byte that UTF-8 text never contains
    hash *= kPrime;
  };
  for (const auto& [field, value] : fields) {
    mix(field);
    mix(value);
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

Fingerprint machine_fingerprint(const Context& context,
                                const std::map<std::string, std::string>& facts) {
  Fingerprint fingerprint;
  put(fingerprint, "cpu_model", context.cpu_model);
  if (context.logical_cpus > 0) {
    put(fingerprint, "logical_cpus", std::to_string(context.logical_cpus));
  }
  put(fingerprint, "kernel", context.kernel);
  // A context from another tool's file (Google Benchmark's) has neither: its host name, beside
  // the CPU count, is what tells two machines apart (a Windows desktop and a Mac of 8 CPUs each
  // were one machine in the history).
  if (context.cpu_model.empty() && context.kernel.empty()) {
    put(fingerprint, "host", context.hostname);
  }
  put(fingerprint, "memory", fact(facts, "memory"));
  put(fingerprint, "virtualization", fact(facts, "virtualization"));
  return fingerprint;
}

Fingerprint build_fingerprint(const Context& context) {
  Fingerprint fingerprint;
  put(fingerprint, "compiler", context.compiler);
  put(fingerprint, "build_type", context.build_type);
  // The benchmark binary's own flags when they were captured, else the library's.
  put(fingerprint, "flags",
      context.compile_flags.empty() ? context.library_flags : context.compile_flags);
  // Only meaningful once a compiler was recorded: a context with no build facts at all has
  // these at their defaults, which say nothing.
  if (!context.compiler.empty() || !context.build_type.empty()) {
    fingerprint.fields["optimized"] = context.optimized ? "yes" : "no";
    fingerprint.fields["assertions"] = context.assertions ? "yes" : "no";
  }
  return fingerprint;
}

std::vector<FieldDifference> differing_fields(const Fingerprint& left, const Fingerprint& right,
                                              std::string_view fingerprint_name) {
  std::vector<FieldDifference> differences;
  for (const auto& [field, value] : left.fields) {
    const auto other = right.fields.find(field);
    if (other == right.fields.end() || other->second == value) continue;
    differences.push_back({std::string(fingerprint_name), field, value, other->second});
  }
  return differences;
}

std::vector<FieldDifference> compare_contexts(
    const Context& left, const Context& right, const std::map<std::string, std::string>& left_facts,
    const std::map<std::string, std::string>& right_facts) {
  std::vector<FieldDifference> differences = differing_fields(
      machine_fingerprint(left, left_facts), machine_fingerprint(right, right_facts), "machine");
  for (FieldDifference& difference :
       differing_fields(build_fingerprint(left), build_fingerprint(right), "build")) {
    differences.push_back(std::move(difference));
  }
  return differences;
}

std::string describe_differences(const std::vector<FieldDifference>& differences) {
  if (differences.empty()) return {};
  std::string line = "results differ in ";
  std::string current;
  for (const FieldDifference& difference : differences) {
    if (difference.fingerprint != current) {
      if (!current.empty()) line += ") and ";
      line += difference.fingerprint + " (";
      current = difference.fingerprint;
    } else {
      line += "; ";
    }
    line += difference.field + ": " + difference.left + " vs " + difference.right;
  }
  return line + "): compare like with like, or treat the verdict with caution";
}

}  // namespace benchkit::system
