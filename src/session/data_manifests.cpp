#include "session/data_manifests.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "store/atomic_file.hpp"
#include "store/digest_cache.hpp"
#include "store/file_digest.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;

store::DigestCache cache_of(const DataOptions& options) {
  return options.no_cache ? store::DigestCache()
                          : store::DigestCache::load(store::digest_cache_path());
}

}  // namespace

std::string as_listed(const std::string& file, const std::string& manifest_path) {
  const fs::path folder = fs::absolute(fs::path(manifest_path)).lexically_normal().parent_path();
  const fs::path relative = fs::absolute(file).lexically_normal().lexically_relative(folder);
  return relative.empty() ? file : relative.string();
}

model::Result<formats::DataManifest> write_manifest(const DataOptions& options) {
  formats::DataManifest manifest;
  manifest.generator = options.generator;
  manifest.generator_version = options.generator_version;
  store::DigestCache cache = cache_of(options);
  for (const std::string& file : options.files) {
    const auto stamp = store::stamp_of(file);
    if (!stamp) return stamp.error();
    const std::string key = fs::absolute(file).lexically_normal().string();
    std::string digest;
    if (auto cached = cache.find(key, *stamp)) {
      digest = *cached;
    } else {
      auto hashed = store::sha256_of(file);
      if (!hashed) return hashed.error();
      digest = *hashed;
      cache.remember(key, *stamp, digest);
    }
    const std::string listed = as_listed(file, options.out);
    for (const formats::DataFile& known : manifest.files) {
      if (known.path == listed) {
        return model::Error{fmt::format("{} is given twice; name each file once", file),
                            model::ErrorKind::usage};
      }
    }
    manifest.files.push_back({listed, stamp->bytes, digest});
  }
  (void)cache.save();  // a cache only: a failure costs a hash next time
  const auto written =
      store::write_file_atomically(options.out, formats::manifest_to_json(manifest));
  if (!written) return written.error();
  return manifest;
}

model::Result<std::vector<store::CheckedFile>> verify_manifest(const DataOptions& options) {
  const auto text = store::read_file(options.manifest);
  if (!text) return text.error();
  const auto manifest = formats::manifest_from_json(*text, options.manifest);
  if (!manifest) return manifest.error();
  store::DigestCache cache = cache_of(options);
  auto checked = store::check_manifest(options.manifest, *manifest, cache);
  (void)cache.save();
  return checked;
}

}  // namespace benchkit::session
