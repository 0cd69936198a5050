// Parsing a JSON document for the readers of src/formats/: errors that say where the text is
// damaged, and the bare NaN, Infinity and -Infinity that Google Benchmark writes (JSON has no
// such numbers) read as numbers when a reader accepts them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::formats {

enum class NonFinite {
  rejected,  // strict JSON (the benchkit result)
  accepted,  // NaN, Infinity, -Infinity outside strings read as those doubles
};

// Parses `text`, or throws a model::Error naming `origin`, the line and column where the JSON
// breaks, and whether the file ends too early (truncated).
nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& origin,
                                           NonFinite non_finite = NonFinite::rejected);

// "line 3, column 7" of byte `byte` in `text` (both counted from 1).
std::string line_and_column(std::string_view text, std::size_t byte);

// What the readers of other tools' files throw: where in the document (a path such as
// "benchmarks[3].real_time", empty for the top level) and what is wrong there.
struct DocumentProblem {
  std::string path;
  std::string message;
};

[[noreturn]] void fail_at(const std::string& path, const std::string& message);

// The member `key` of `object`, or null when it is absent, null, or `object` is no object.
const nlohmann::ordered_json* find_member(const nlohmann::ordered_json& object, const char* key);

// Runs `read()` and turns what it throws into an Error that starts with `origin`: a
// DocumentProblem ("ORIGIN: PATH: MESSAGE"), an Error from parse_json_document, or an exception
// of the JSON library.
template <class T, class Read>
model::Result<T> read_with_origin(const std::string& origin, Read read) {
  try {
    return read();
  } catch (const DocumentProblem& problem) {
    return model::Error{origin + ": " + (problem.path.empty() ? "(top level)" : problem.path) +
                        ": " + problem.message};
  } catch (model::Error& error) {
    return error;
  } catch (const nlohmann::ordered_json::exception& error) {
    return model::Error{origin + ": unexpected content: " + error.what()};
  }
}

}  // namespace benchkit::formats
