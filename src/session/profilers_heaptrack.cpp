// heaptrack: the peak heap and its largest consumers, read through heaptrack_print.
#include <fmt/format.h>

#include <filesystem>

#include "formats/profile_files.hpp"
#include "session/profilers.hpp"
#include "store/atomic_file.hpp"

namespace benchkit::session {
namespace {

class HeaptrackProfiler final : public Profiler {
 public:
  model::ProfileTool tool() const override { return model::ProfileTool::heaptrack; }

  std::vector<std::string> programs() const override { return {"heaptrack", "heaptrack_print"}; }

  // heaptrack adds the suffix of its compression to -o's name; both are possible.
  std::vector<std::string> stale_files(const std::string& dir) const override {
    return {base(dir) + ".zst", base(dir) + ".gz"};
  }

  // No region: heaptrack sees the whole process, its stacks tell the routine apart.
  std::string markers(const std::string& /*dir*/) const override { return "none"; }

  std::vector<std::string> command(const ProgramPaths& programs, const std::string& dir,
                                   const std::vector<std::string>& bench) const override {
    std::vector<std::string> argv = {programs.at("heaptrack"), "-o", base(dir)};
    argv.insert(argv.end(), bench.begin(), bench.end());
    return argv;
  }

  // One whole stack a block (--merge-backtraces=0): merged by their innermost frame (the
  // default), every allocation through std::allocator is one block whose callers are cut to a
  // few, and a site could not be told from its stack.
  model::Result<std::optional<Conversion>> conversion(const ProgramPaths& programs,
                                                      const std::string& dir) const override {
    const auto data = data_file(dir);
    if (!data) return data.error();
    return std::optional<Conversion>(
        Conversion{.argv = {programs.at("heaptrack_print"), "-f", *data, "--merge-backtraces=0",
                            "--print-allocators=0", "--print-temporary=0"},
                   .limit = 64u << 20,
                   .what = "heaptrack_print -f " + *data});
  }

  model::Result<bool> read(model::Profile& profile, const std::string& dir,
                           const std::string& converted) const override {
    const auto data = data_file(dir);
    if (!data) return data.error();
    // Kept beside the data: heaptrack_print's text is what a reader opens next.
    const std::string text_file = dir + "/heaptrack.txt";
    (void)store::write_file_atomically(text_file, converted);
    const formats::HeaptrackSummary parsed = formats::parse_heaptrack_print(converted);
    profile.unit = "bytes";
    profile.peak_heap_bytes = parsed.peak_bytes;
    profile.peak_sites = parsed.peak_sites;
    explain_routine_sites(profile);
    if (parsed.allocation_calls) {
      profile.notes.push_back(fmt::format(
          "heaptrack counted {:.0f} calls to allocation functions in the whole process (set-up "
          "included)",
          *parsed.allocation_calls));
    }
    profile.notes.push_back(
        "heaptrack sees the whole process: the peak heap includes what the set-up allocated");
    profile.files.push_back(*data);
    profile.files.push_back(text_file);
    return true;
  }

  bool profiles_heap() const override { return true; }

 private:
  static std::string base(const std::string& dir) { return dir + "/heaptrack"; }

  // The file heaptrack wrote: zstd-compressed when it was built with zstd, else gzip.
  static model::Result<std::string> data_file(const std::string& dir) {
    for (const char* suffix : {".zst", ".gz"}) {
      if (std::filesystem::exists(base(dir) + suffix)) return base(dir) + suffix;
    }
    return model::Error{fmt::format("heaptrack wrote no {}.zst or .gz", base(dir)),
                        model::ErrorKind::failed};
  }
};

}  // namespace

std::unique_ptr<Profiler> make_heaptrack_profiler() {
  return std::make_unique<HeaptrackProfiler>();
}

}  // namespace benchkit::session
