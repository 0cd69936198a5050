#include "store/input_files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "benchkit/data.hpp"
#include "store/atomic_file.hpp"
#include "store/baselines.hpp"

namespace benchkit::store {

namespace fs = std::filesystem;

namespace {

std::string absolute(const std::string& path) {
  std::error_code ignored;
  const fs::path resolved = fs::absolute(path, ignored);
  return (resolved.empty() ? fs::path(path) : resolved).lexically_normal().string();
}

std::string mismatch(const std::string& path, const ExpectedFile& expected,
                     const std::string& found_sha256, std::uint64_t found_bytes) {
  const std::string sizes =
      found_bytes == expected.bytes
          ? fmt::format("size {} bytes as expected", found_bytes)
          : fmt::format("size {} bytes, expected {}", found_bytes, expected.bytes);
  const std::string fix =
      expected.regenerate.empty()
          ? "make it again the way it was made (a manifest written with benchkit data manifest "
            "--generator CMD records how), or, if it changed on purpose, update the expected "
            "digest and size"
          : fmt::format(
                "make it again with: {}; or, if it changed on purpose, update the "
                "expected digest and size (benchkit data manifest)",
                expected.regenerate);
  return fmt::format(
      "data file {} is not the expected one: its SHA-256 is {}, expected {} ({}); {}", path,
      found_sha256, expected.sha256, sizes, fix);
}

// The process's record of checked files and its digest cache, loaded on first use.
struct ProcessState {
  std::mutex mutex;
  std::vector<InputFile> checked;
  std::optional<DigestCache> cache;
};

ProcessState& process_state() {
  static ProcessState state;
  return state;
}

std::string check_for_benchmark(const std::string& path, const ExpectedFile& expected) {
  ProcessState& state = process_state();
  const std::lock_guard lock(state.mutex);
  // Loaded once per process, again only if $BENCHKIT_DIR changed since.
  if (const std::string path = digest_cache_path(); !state.cache || state.cache->path() != path) {
    state.cache = DigestCache::load(path);
  }
  auto checked = check_file(path, expected, *state.cache);
  if (!checked) throw std::runtime_error(checked.error().message);
  // A cache that cannot be written costs a hash next time, nothing more.
  if (checked->hashed) (void)state.cache->save();
  state.checked.push_back(checked->file);
  return path;
}

}  // namespace

model::Result<CheckedFile> check_file(const std::string& path, const ExpectedFile& expected,
                                      DigestCache& cache, const Hasher& hash) {
  if (!formats::is_sha256_hex(expected.sha256)) {
    return model::Error{fmt::format(
        "data file {}: the expected SHA-256 \"{}\" is not 64 lowercase hexadecimal digits; copy "
        "it from sha256sum {} or from the manifest (benchkit data manifest)",
        path, expected.sha256, path)};
  }
  auto stamp = stamp_of(path);
  if (!stamp) {
    std::string message = stamp.error().message;
    if (!expected.regenerate.empty()) message += "; make it with: " + expected.regenerate;
    return model::Error{message};
  }
  const std::string key = absolute(path);
  CheckedFile checked;
  checked.file.path = path;
  checked.file.bytes = stamp->bytes;
  if (auto cached = cache.find(key, *stamp)) {
    checked.file.sha256 = std::move(*cached);
  } else {
    auto digest = hash(path);
    if (!digest) return digest.error();
    // Stamped again: a file written while it was hashed must not be cached under the new stamp.
    const auto after = stamp_of(path);
    if (after && *after == *stamp) cache.remember(key, *stamp, *digest);
    checked.file.sha256 = std::move(*digest);
    checked.hashed = true;
  }
  if (checked.file.sha256 != expected.sha256 || checked.file.bytes != expected.bytes) {
    return model::Error{mismatch(path, expected, checked.file.sha256, checked.file.bytes)};
  }
  return checked;
}

std::string beside_manifest(const std::string& manifest_path, const std::string& path) {
  const fs::path file(path);
  if (file.is_absolute()) return path;
  const fs::path folder = fs::path(manifest_path).parent_path();
  return folder.empty() ? path : (folder / file).lexically_normal().string();
}

std::string regenerate_hint(const std::string& manifest_path,
                            const formats::DataManifest& manifest) {
  if (manifest.generator.empty()) return {};
  const std::string folder = fs::path(manifest_path).parent_path().string();
  return fmt::format("{}{}{}", manifest.generator,
                     manifest.generator_version.empty()
                         ? ""
                         : fmt::format(" (version {})", manifest.generator_version),
                     folder.empty() ? "" : fmt::format(", run in {}", folder));
}

model::Result<std::vector<CheckedFile>> check_manifest(const std::string& manifest_path,
                                                       const formats::DataManifest& manifest,
                                                       DigestCache& cache, const Hasher& hash) {
  std::vector<CheckedFile> checked;
  const std::string regenerate = regenerate_hint(manifest_path, manifest);
  for (const formats::DataFile& file : manifest.files) {
    auto one = check_file(beside_manifest(manifest_path, file.path),
                          ExpectedFile{file.sha256, file.bytes, regenerate}, cache, hash);
    if (!one) return model::Error{manifest_path + ": " + one.error().message};
    checked.push_back(std::move(*one));
  }
  return checked;
}

std::vector<InputFile> checked_inputs(std::size_t since) {
  ProcessState& state = process_state();
  const std::lock_guard lock(state.mutex);
  if (since >= state.checked.size()) return {};
  return {state.checked.begin() + static_cast<std::ptrdiff_t>(since), state.checked.end()};
}

std::size_t checked_input_count() {
  ProcessState& state = process_state();
  const std::lock_guard lock(state.mutex);
  return state.checked.size();
}

std::string digest_cache_path() {
  return benchkit_directory() + "/data-cache.json";
}

}  // namespace benchkit::store

namespace benchkit::data {

std::string input_file(std::string_view path, const FileCheck& expected) {
  return store::check_for_benchmark(
      std::string(path), store::ExpectedFile{std::string(expected.sha256), expected.bytes,
                                             std::string(expected.regenerate)});
}

std::string manifest_file(std::string_view manifest, std::string_view name) {
  const std::string manifest_path(manifest);
  const auto text = store::read_file(manifest_path);
  if (!text) {
    throw std::runtime_error(fmt::format(
        "cannot read data manifest {}: {}; write it with benchkit data manifest FILE... --out {}",
        manifest_path, text.error().message, manifest_path));
  }
  const auto parsed = formats::manifest_from_json(*text, manifest_path);
  if (!parsed) throw std::runtime_error(parsed.error().message);
  for (const formats::DataFile& file : parsed->files) {
    if (file.path != name) continue;
    return store::check_for_benchmark(
        store::beside_manifest(manifest_path, file.path),
        store::ExpectedFile{file.sha256, file.bytes,
                            store::regenerate_hint(manifest_path, *parsed)});
  }
  std::string listed;
  for (const formats::DataFile& file : parsed->files) {
    listed += (listed.empty() ? "" : ", ") + file.path;
  }
  throw std::runtime_error(fmt::format(
      "data manifest {} lists no file \"{}\" (it lists: {}); add it with benchkit data manifest",
      manifest_path, name, listed.empty() ? "none" : listed));
}

}  // namespace benchkit::data
