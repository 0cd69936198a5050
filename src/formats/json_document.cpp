#include "formats/json_document.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "model/error.hpp"

namespace benchkit::formats {
namespace {

using nlohmann::ordered_json;

// The non-finite numbers Google Benchmark prints (its json_reporter writes a double that is NaN
// or infinite as a bare word), each standing in the rewritten text for a string that no real
// document holds: a NUL character cannot appear in a name Google Benchmark prints.
struct Word {
  std::string_view text;
  std::string_view marker;  // the JSON string written in its place
  double value;
};
const Word kWords[] = {
    {"-Infinity", "\"\\u0000-Infinity\"", -std::numeric_limits<double>::infinity()},
    {"Infinity", "\"\\u0000Infinity\"", std::numeric_limits<double>::infinity()},
    {"-NaN", "\"\\u0000NaN\"", std::numeric_limits<double>::quiet_NaN()},
    {"NaN", "\"\\u0000NaN\"", std::numeric_limits<double>::quiet_NaN()},
};

// `text` with each bare non-finite word outside strings replaced by its marker; `shifts` gets
// (offset in the rewritten text just after the marker, bytes added there) so that an error's
// position can be given in the original.
std::string rewrite_non_finite(std::string_view text,
                               std::vector<std::pair<std::size_t, std::size_t>>& shifts) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const Word& word : kWords) {
      if (text.substr(i, word.text.size()) == word.text) {
        out += word.marker;
        shifts.emplace_back(out.size(), word.marker.size() - word.text.size());
        i += word.text.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

// Turns the markers back into numbers, everywhere in the tree.
void restore_non_finite(ordered_json& value) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.empty() || text[0] != '\0') return;
    for (const Word& word : kWords) {
      if (text.substr(1) == word.text) {
        value = word.value;
        return;
      }
    }
    return;
  }
  if (value.is_structured()) {
    for (ordered_json& child : value) restore_non_finite(child);
  }
}

// What a file that is no JSON at all looks like, when it is another tool's (or benchkit's own)
// text output rather than a damaged file: "" otherwise. Read from its first line.
std::string other_format(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] == '{' || text[start] == '[') return {};
  std::string_view line = text.substr(start, text.find('\n', start) - start);
  const auto starts = [&line](std::string_view prefix) { return line.starts_with(prefix); };
  if (starts("name,iterations,real_time,cpu_time")) {
    return "this is Google Benchmark's CSV output; benchkit reads its JSON: run the suite with "
           "--benchmark_out=FILE --benchmark_out_format=json (or --benchmark_format=json)";
  }
  if (starts("command,mean,stddev")) {
    return "this is hyperfine's CSV export; benchkit reads its JSON: --export-json FILE";
  }
  if (starts("| Command |")) {
    return "this is hyperfine's Markdown export; benchkit reads its JSON: --export-json FILE";
  }
  if (starts("name,kind,median_ns") || starts("name,baseline_ns,new_ns")) {
    return "this is benchkit's CSV export, which is not read back; give the run's JSON "
           "(--out, --export-json) or the comparison's (--format json --out)";
  }
  // Google Benchmark's console output: its table's head, "Benchmark  Time  CPU  Iterations",
  // after the date and the run's context.
  const bool table_head =
      starts("Benchmark ") || text.find("\nBenchmark ") != std::string_view::npos;
  if (table_head && text.find("Iterations") != std::string_view::npos) {
    return "this looks like Google Benchmark's console output; benchkit reads its JSON: run the "
           "suite with --benchmark_out=FILE --benchmark_out_format=json";
  }
  return {};
}

}  // namespace

std::string line_and_column(std::string_view text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

void fail_at(const std::string& path, const std::string& message) {
  throw DocumentProblem{path, message};
}

const ordered_json* find_member(const ordered_json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

ordered_json parse_json_document(std::string_view text, const std::string& origin,
                                 NonFinite non_finite) {
  std::vector<std::pair<std::size_t, std::size_t>> shifts;
  std::string rewritten;
  if (non_finite == NonFinite::accepted) rewritten = rewrite_non_finite(text, shifts);
  const std::string_view parsed = non_finite == NonFinite::accepted ? rewritten : text;
  try {
    ordered_json root = ordered_json::parse(parsed.begin(), parsed.end());
    if (!shifts.empty()) restore_non_finite(root);
    return root;
  } catch (const ordered_json::parse_error& error) {
    std::size_t byte = error.byte;
    std::size_t added = 0;
    for (const auto& [at, bytes] : shifts) {
      if (at < byte) added += bytes;
    }
    byte -= std::min(byte, added);
    if (const std::string other = other_format(text); !other.empty()) {
      throw model::Error{fmt::format("{}: not JSON: {}", origin, other)};
    }
    const std::string where = byte > 0 ? line_and_column(text, byte - 1) : "start";
    const bool truncated = byte >= text.size();
    throw model::Error{
        fmt::format("{}: not valid JSON at {}{}; the file is damaged: re-run the "
                    "benchmark to produce it again",
                    origin, where, truncated ? " (the file ends too early: truncated?)" : "")};
  } catch (const ordered_json::out_of_range& error) {
    // A number beyond a double (1e999): the parser says which, without a position.
    const std::string what = error.what();
    const auto end_of_id = what.find("] ");
    throw model::Error{fmt::format(
        "{}: not valid JSON: {} (a number too large for a double); the file is damaged: "
        "re-run the benchmark to produce it again",
        origin, end_of_id == std::string::npos ? what : what.substr(end_of_id + 2))};
  }
}

}  // namespace benchkit::formats
