#include "store/digest_cache.hpp"

#include <nlohmann/json.hpp>

#include "formats/data_manifest.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::store {

namespace {
constexpr const char* kSchema = "benchkit/data-cache";
constexpr int kVersion = 1;
}  // namespace

DigestCache::DigestCache(std::string path) : path_(std::move(path)) {}

DigestCache DigestCache::load(const std::string& path) {
  DigestCache cache(path);
  if (const auto text = read_file(path)) {
    try {
      cache.read_from(*text);
    } catch (const nlohmann::json::exception&) {
      // A value of an unexpected type: read as empty, like any other damage.
    }
  }
  return cache;
}

void DigestCache::read_from(const std::string& text) {
  // Anything unexpected leaves the entries read so far out: a cache is rebuilt, never trusted
  // in part.
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
  if (!root.is_object() || root.value("schema", "") != kSchema ||
      root.value("version", 0) != kVersion || !root.contains("files") ||
      !root["files"].is_object()) {
    return;
  }
  std::map<std::string, Entry> read;
  for (const auto& [file, entry] : root["files"].items()) {
    if (!entry.is_object() || !entry.contains("bytes") || !entry["bytes"].is_number_unsigned() ||
        !entry.contains("modified_ns") || !entry["modified_ns"].is_number_integer() ||
        !entry.contains("sha256") || !entry["sha256"].is_string() ||
        !formats::is_sha256_hex(entry["sha256"].get<std::string>())) {
      return;
    }
    read[file] =
        Entry{{entry["bytes"].get<std::uint64_t>(), entry["modified_ns"].get<std::int64_t>()},
              entry["sha256"].get<std::string>()};
  }
  entries_ = std::move(read);
}

std::optional<std::string> DigestCache::find(const std::string& absolute_path,
                                             const FileStamp& stamp) const {
  const auto found = entries_.find(absolute_path);
  if (found == entries_.end() || !(found->second.stamp == stamp)) return std::nullopt;
  return found->second.sha256;
}

void DigestCache::remember(const std::string& absolute_path, const FileStamp& stamp,
                           std::string sha256) {
  Entry entry{stamp, std::move(sha256)};
  entries_[absolute_path] = entry;
  added_[absolute_path] = std::move(entry);
}

model::Result<bool> DigestCache::save() const {
  if (path_.empty()) return true;
  DigestCache current = load(path_);
  for (const auto& [file, entry] : added_) current.entries_[file] = entry;
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [file, entry] : current.entries_) {
    files[file] = {{"bytes", entry.stamp.bytes},
                   {"modified_ns", entry.stamp.modified_ns},
                   {"sha256", entry.sha256}};
  }
  const nlohmann::json root = {{"schema", kSchema}, {"version", kVersion}, {"files", files}};
  const auto written = write_file_atomically(path_, root.dump(2) + "\n");
  if (!written) return written.error();
  return true;
}

}  // namespace benchkit::store
