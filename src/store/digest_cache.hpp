// The digest cache (.benchkit/data-cache.json, or $BENCHKIT_DIR/data-cache.json): the SHA-256
// of each data file benchkit has verified, keyed by its absolute path and valid while the file's
// size and modification time are those recorded, so that a 1 GiB input is hashed once and not
// before every run. A cache only: a damaged or missing file is read as empty and rewritten.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "model/error.hpp"
#include "store/file_digest.hpp"

namespace benchkit::store {

class DigestCache {
 public:
  // An empty cache kept in `path` (nothing read yet); an empty path keeps it in memory only.
  explicit DigestCache(std::string path = {});

  // The cache in `path` as last saved; empty when the file is missing or damaged.
  static DigestCache load(const std::string& path);

  // The digest recorded for `absolute_path`, when its stamp is `stamp` exactly.
  std::optional<std::string> find(const std::string& absolute_path, const FileStamp& stamp) const;
  void remember(const std::string& absolute_path, const FileStamp& stamp, std::string sha256);

  // Writes the cache atomically, after merging what other processes saved since it was loaded
  // (workers verify files in parallel). The error names the file; callers may ignore it: the
  // next run hashes again.
  model::Result<bool> save() const;

  const std::string& path() const { return path_; }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    FileStamp stamp;
    std::string sha256;
  };
  std::string path_;
  std::map<std::string, Entry> entries_;
  std::map<std::string, Entry> added_;  // remembered since load: what save() must not lose
  void read_from(const std::string& text);
};

}  // namespace benchkit::store
