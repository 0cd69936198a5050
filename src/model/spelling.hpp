// What a misspelt word was meant to be: a flag of a command, a subcommand, a benchmark's name.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace benchkit::model {

// The fewest single-character insertions, deletions and substitutions that turn `a` into `b`
// (Levenshtein).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The word of `known` that `word` most likely misspells: the nearest by edit distance when it is
// at most 2 edits away and the edits are fewer than a third of `word`'s characters ("--filer"
// finds "--filter", "compar" finds "compare"; "--out" finds nothing in "--export-json"), the
// first of several equally near; none when no word is that near, or `word` is among `known`.
std::optional<std::string> likely_meant(std::string_view word, std::span<const std::string> known);

}  // namespace benchkit::model
