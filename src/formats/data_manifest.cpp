#include "formats/data_manifest.hpp"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/json_document.hpp"

namespace benchkit::formats {

namespace {

using nlohmann::ordered_json;

const ordered_json& required(const ordered_json& object, const char* key, const std::string& at) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) throw DocumentProblem{at + key, "missing"};
  return *found;
}

std::string text_at(const ordered_json& object, const char* key, const std::string& at,
                    bool needed) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) {
    if (needed) throw DocumentProblem{at + key, "missing (expected a string)"};
    return {};
  }
  if (!found->is_string()) {
    throw DocumentProblem{at + key, fmt::format("expected a string, got {}", found->type_name())};
  }
  return found->get<std::string>();
}

DataFile read_file_entry(const ordered_json& entry, const std::string& at) {
  if (!entry.is_object())
    throw DocumentProblem{at, "expected an object with path, bytes and sha256"};
  DataFile file;
  file.path = text_at(entry, "path", at + ".", true);
  if (file.path.empty()) throw DocumentProblem{at + ".path", "is empty (name the file)"};
  const ordered_json& bytes = required(entry, "bytes", at + ".");
  if (!bytes.is_number_unsigned() &&
      !(bytes.is_number_integer() && bytes.get<std::int64_t>() >= 0)) {
    throw DocumentProblem{at + ".bytes",
                          fmt::format("expected a non-negative integer, got {}", bytes.dump())};
  }
  file.bytes = bytes.get<std::uint64_t>();
  file.sha256 = text_at(entry, "sha256", at + ".", true);
  for (char& c : file.sha256) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!is_sha256_hex(file.sha256)) {
    throw DocumentProblem{
        at + ".sha256",
        fmt::format("\"{}\" is not a SHA-256 digest (64 hexadecimal digits, as "
                    "sha256sum prints)",
                    file.sha256.size() > 80 ? file.sha256.substr(0, 80) + "..." : file.sha256)};
  }
  return file;
}

DataManifest read_manifest(const ordered_json& root) {
  if (!root.is_object()) throw DocumentProblem{"", "expected a JSON object"};
  const std::string schema = text_at(root, "schema", "", false);
  if (schema != DataManifest::schema) {
    throw DocumentProblem{
        "schema", schema.empty()
                      ? fmt::format("missing: this is not a benchkit data manifest "
                                    "(expected \"schema\": \"{}\"; benchkit data "
                                    "manifest FILE... --out MANIFEST writes one)",
                                    DataManifest::schema)
                      : fmt::format("is \"{}\", expected \"{}\"", schema, DataManifest::schema)};
  }
  const auto version = root.find("version");
  if (version == root.end() || !version->is_number_integer()) {
    throw DocumentProblem{"version", "missing (expected an integer format version)"};
  }
  if (version->get<std::int64_t>() != DataManifest::version) {
    throw DocumentProblem{
        "version", fmt::format("format version {} is not supported: this benchkit reads version "
                               "{}; use a benchkit that matches the manifest",
                               version->dump(), DataManifest::version)};
  }
  DataManifest manifest;
  manifest.generator = text_at(root, "generator", "", false);
  manifest.generator_version = text_at(root, "generator_version", "", false);
  const ordered_json& files = required(root, "files", "");
  if (!files.is_array()) {
    throw DocumentProblem{"files",
                          fmt::format("expected an array of files, got {}", files.type_name())};
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string at = fmt::format("files[{}]", i);
    DataFile file = read_file_entry(files[i], at);
    if (!seen.insert(file.path).second) {
      throw DocumentProblem{
          at + ".path", fmt::format("\"{}\" is listed twice; keep one entry per file", file.path)};
    }
    manifest.files.push_back(std::move(file));
  }
  return manifest;
}

}  // namespace

bool is_sha256_hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string manifest_to_json(const DataManifest& manifest) {
  ordered_json root = ordered_json::object();
  root["schema"] = DataManifest::schema;
  root["version"] = DataManifest::version;
  if (!manifest.generator.empty()) root["generator"] = manifest.generator;
  if (!manifest.generator_version.empty()) root["generator_version"] = manifest.generator_version;
  ordered_json files = ordered_json::array();
  for (const DataFile& file : manifest.files) {
    files.push_back({{"path", file.path}, {"bytes", file.bytes}, {"sha256", file.sha256}});
  }
  root["files"] = std::move(files);
  return root.dump(2) + "\n";
}

model::Result<DataManifest> manifest_from_json(std::string_view text, const std::string& origin) {
  ordered_json root;
  try {
    root = ordered_json::parse(text.begin(), text.end());
  } catch (const ordered_json::parse_error& error) {
    return model::Error{fmt::format(
        "{}: not valid JSON ({}); write the manifest again with benchkit data manifest FILE... "
        "--out {}",
        origin, error.byte >= text.size() ? "it ends too early: truncated?" : error.what(),
        origin)};
  } catch (const ordered_json::out_of_range& error) {  // a number beyond a double: 1e999
    return model::Error{fmt::format(
        "{}: not valid JSON ({}: a number too large for a double); write the manifest again "
        "with benchkit data manifest FILE... --out {}",
        origin, error.what(), origin)};
  }
  try {
    return read_manifest(root);
  } catch (const DocumentProblem& problem) {
    return model::Error{fmt::format("{}: {}: {}", origin,
                                    problem.path.empty() ? "(top level)" : problem.path,
                                    problem.message)};
  } catch (const ordered_json::exception& error) {
    return model::Error{fmt::format("{}: unexpected content: {}", origin, error.what())};
  }
}

}  // namespace benchkit::formats
