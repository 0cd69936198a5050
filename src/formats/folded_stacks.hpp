// The folded-stacks text of a flame graph: one stack a line, its frames root first joined by ';',
// then a space and its cost ("main;work;hash 120"). flamegraph.pl, inferno and speedscope read
// it; `benchkit profile` keeps it beside the raw profiler files (docs/profiling.md).
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace benchkit::formats {

// The stacks as that text. A ';' or a line break inside a frame's name (C++ names hold neither
// often, but a lambda's or an operator's may) becomes a space, so every line reads back as the
// stack it was; costs are written as whole numbers.
std::string folded_text(const std::vector<model::FoldedStack>& stacks);

}  // namespace benchkit::formats
