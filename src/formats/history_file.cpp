#include "formats/history_file.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace benchkit::formats {

std::string to_history_file(const std::vector<std::string>& documents) {
  std::string text = fmt::format("{{\"schema\": \"{}\", \"version\": {}, \"runs\": [",
                                 kHistorySchema, kHistoryVersion);
  for (std::size_t i = 0; i < documents.size(); ++i) {
    // Compact: one run a line, so that a history file diffs and greps run by run.
    text += (i ? ",\n" : "\n") + nlohmann::json::parse(documents[i]).dump();
  }
  text += "\n]}\n";
  return text;
}

model::Result<std::vector<std::string>> from_history_file(std::string_view text,
                                                          const std::string& origin) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    return model::Error{
        fmt::format("{} is not JSON ({}); give a file that benchkit history "
                    "export wrote",
                    origin, error.what())};
  }
  // find, not value(): value("schema", "") throws when "schema" is there but not a string.
  const auto schema = document.is_object() ? document.find("schema") : document.end();
  if (schema == document.end() || !schema->is_string() || *schema != kHistorySchema) {
    return model::Error{fmt::format(
        "{} is not a benchkit history file (its \"schema\" is not \"{}\"); for result files use "
        "benchkit history add",
        origin, kHistorySchema)};
  }
  const auto version = document.find("version");
  if (version == document.end() || !version->is_number_integer()) {
    return model::Error{fmt::format("{}: \"version\" is missing or not a whole number", origin)};
  }
  if (version->get<int>() > kHistoryVersion) {
    return model::Error{fmt::format(
        "{} is history file version {}, newer than this benchkit's {}; upgrade benchkit", origin,
        version->get<int>(), kHistoryVersion)};
  }
  const auto runs = document.find("runs");
  if (runs == document.end() || !runs->is_array()) {
    return model::Error{fmt::format("{}: \"runs\" is missing or not an array", origin)};
  }
  std::vector<std::string> documents;
  documents.reserve(runs->size());
  for (const nlohmann::json& run : *runs) documents.push_back(run.dump());
  return documents;
}

}  // namespace benchkit::formats
