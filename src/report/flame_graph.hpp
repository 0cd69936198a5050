// A flame graph of folded stacks, laid out and drawn by benchkit (no external script): each
// stack's frames stacked root at the bottom, a frame as wide as the cost of every stack through
// it, siblings in name order (so two profiles of one program line up). The folded stacks as text
// are a file format: formats/folded_stacks.hpp.
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace benchkit::report {

struct FlameFrame {
  std::string name;
  std::size_t depth = 0;  // 0: the roots
  double start = 0.0;     // in cost units from the left edge
  double value = 0.0;     // the cost of the stacks through it
};

// The frames of `stacks`, parents before children; `total` receives the sum of the stacks.
std::vector<FlameFrame> layout_flame_graph(const std::vector<model::FoldedStack>& stacks,
                                           double& total);

// The flame graph as a standalone SVG image titled `title`, costs named by `unit`. Every name
// is written as escaped XML text; hovering a frame shows its name, cost and share.
std::string flame_graph_svg(const std::vector<model::FoldedStack>& stacks, const std::string& title,
                            const std::string& unit);

// The flame graph of a profile's stacks, titled "BENCHMARK · TOOL · UNIT" (`benchkit profile`'s
// flame.svg, session::ProfileRequest::draw_flame_graph).
std::string profile_flame_graph(const model::Profile& profile);

}  // namespace benchkit::report
