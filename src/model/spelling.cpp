#include "model/spelling.hpp"

#include <algorithm>
#include <vector>

namespace benchkit::model {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> likely_meant(std::string_view word, std::span<const std::string> known) {
  if (std::find(known.begin(), known.end(), word) != known.end()) return std::nullopt;
  // Fewer edits than a third of the word's characters, and at most 2.
  const std::size_t below_third = word.empty() ? 0 : (word.size() + 2) / 3 - 1;
  const std::size_t most = std::min<std::size_t>(2, below_third);
  std::optional<std::string> nearest;
  std::size_t nearest_distance = most + 1;
  for (const std::string& candidate : known) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < nearest_distance) {
      nearest = candidate;
      nearest_distance = distance;
    }
  }
  return nearest;
}

}  // namespace benchkit::model
