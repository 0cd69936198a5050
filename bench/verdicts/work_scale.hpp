// The work scale of bench/verdicts' workloads: BENCHKIT_WORK_SCALE (default 1, or the scale the
// variant was built with: verdict_workload_105 is 1.05) multiplies the work of every benchmark,
// in a way no compiler can see through. Included by one source file per binary.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace {

#ifndef VERDICT_WORK_SCALE
#define VERDICT_WORK_SCALE 1.0
#endif
// Read at run time, so that the variants built with another scale (verdict_workload_105, ...)
// differ only in this value, not in their code: code layout alone moved one benchmark here by
// 17% between two builds of the library.
volatile double compiled_scale = VERDICT_WORK_SCALE;

double work_scale() {
  const char* text = std::getenv("BENCHKIT_WORK_SCALE");
  return text ? std::strtod(text, nullptr) : compiled_scale;
}

std::uint64_t scaled(std::uint64_t amount) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(amount) * work_scale()));
}

// `amount` at the largest scale measured (1.10): a buffer that size is the same in every variant,
// so that only the work done on it differs.
std::uint64_t at_largest_scale(std::uint64_t amount) {
  return amount + amount / 10;
}

}  // namespace
