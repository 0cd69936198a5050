#include "report/flame_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>

#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

struct Node {
  double value = 0.0;
  std::map<std::string, std::unique_ptr<Node>> children;
};

// Warm colours, the same for a name in every graph.
std::string colour_of(const std::string& name) {
  const std::size_t hash = std::hash<std::string>{}(name);
  const int red = 205 + static_cast<int>(hash % 50);
  const int green = 80 + static_cast<int>((hash / 50) % 130);
  const int blue = static_cast<int>((hash / 6500) % 55);
  return fmt::format("rgb({},{},{})", red, green, blue);
}

}  // namespace

std::vector<FlameFrame> layout_flame_graph(const std::vector<model::FoldedStack>& stacks,
                                           double& total) {
  Node root;
  for (const model::FoldedStack& stack : stacks) {
    if (!(stack.value > 0.0)) continue;
    root.value += stack.value;
    Node* node = &root;
    for (const std::string& frame : stack.frames) {
      auto& child = node->children[frame];
      if (!child) child = std::make_unique<Node>();
      child->value += stack.value;
      node = child.get();
    }
  }
  total = root.value;
  std::vector<FlameFrame> frames;
  std::function<void(const Node&, std::size_t, double)> place =
      [&](const Node& node, std::size_t depth, double start) {
        for (const auto& [name, child] : node.children) {
          frames.push_back({name, depth, start, child->value});
          place(*child, depth + 1, start);
          start += child->value;
        }
      };
  place(root, 0, 0.0);
  return frames;
}

std::string flame_graph_svg(const std::vector<model::FoldedStack>& stacks, const std::string& title,
                            const std::string& unit) {
  double total = 0.0;
  const std::vector<FlameFrame> frames = layout_flame_graph(stacks, total);
  constexpr double kWidth = 1200.0;
  constexpr double kRow = 17.0;
  constexpr double kTop = 34.0;
  constexpr double kCharWidth = 6.6;  // 11 px monospace
  std::size_t depth = 0;
  for (const FlameFrame& frame : frames) depth = std::max(depth, frame.depth + 1);
  const double height = kTop + kRow * static_cast<double>(depth) + 10.0;
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" standalone=\"no\"?>\n"
      "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"monospace\" font-size=\"11\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#fbfaf7\"/>\n"
      "<text x=\"{2}\" y=\"20\" text-anchor=\"middle\" font-size=\"15\">{3}</text>\n",
      kWidth, height, kWidth / 2, markup_escape(title));
  if (total <= 0.0) {
    svg += "<text x=\"10\" y=\"50\">no samples</text>\n</svg>\n";
    return svg;
  }
  const double scale = (kWidth - 20.0) / total;
  for (const FlameFrame& frame : frames) {
    const double width = frame.value * scale;
    if (width < 0.3) continue;
    const double x = 10.0 + frame.start * scale;
    const double y = height - 10.0 - kRow * static_cast<double>(frame.depth + 1);
    const std::string name = markup_escape(frame.name);
    svg += fmt::format(
        "<g><title>{} ({} {}, {:.2f}%)</title><rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
        "height=\"{}\" fill=\"{}\" rx=\"2\"/>",
        name, fmt::format("{:.0f}", frame.value), markup_escape(unit), 100.0 * frame.value / total,
        x, y, width, kRow - 1.0, colour_of(frame.name));
    const auto fits = static_cast<std::size_t>((width - 6.0) / kCharWidth);
    if (fits >= 3) {
      std::string label = frame.name;
      if (label.size() > fits) label = label.substr(0, fits - 2) + "..";
      svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\">{}</text>", x + 3.0, y + kRow - 5.0,
                         markup_escape(label));
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

std::string profile_flame_graph(const model::Profile& profile) {
  const std::string title = fmt::format("{} · {} · {}", profile.benchmark,
                                        model::profile_tool_name(profile.tool), profile.unit);
  return flame_graph_svg(profile.stacks, title, profile.unit);
}

}  // namespace benchkit::report
