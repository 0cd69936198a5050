#include "vcs/git.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>

#include "process/capture.hpp"
#include "vcs/ci_checkout.hpp"

namespace benchkit::vcs {
namespace {

// git status takes well under a second on the largest work trees we know of; 10 s is for a
// cold disk or a network file system, and keeps a stuck git (a credential prompt, a hung mount)
// from holding a benchmark run.
constexpr std::chrono::milliseconds kGitTimeout{10'000};
// Checking out a revision writes every file of the project: minutes on a large repository and a
// slow disk, never hours.
constexpr std::chrono::milliseconds kSlowGitTimeout{600'000};

std::optional<std::string> run_git_for(const std::string& folder,
                                       const std::vector<std::string>& arguments,
                                       std::chrono::milliseconds timeout) {
  std::vector<std::string> argv = {"git", "-C", folder};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  process::CaptureOptions options;
  options.err = process::Stream::discard;
  options.timeout = timeout;
  auto captured = process::run_captured(argv, options);
  if (!captured || captured->timed_out || !captured->exit.ok()) return std::nullopt;
  return std::move(captured->out);
}

bool is_hex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

// The value of header line "# <key> <value>", or nothing when `line` is another line.
std::optional<std::string_view> header_value(std::string_view line, std::string_view key) {
  if (!line.starts_with("# ")) return std::nullopt;
  line.remove_prefix(2);
  if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ' ') {
    return std::nullopt;
  }
  return line.substr(key.size() + 1);
}

}  // namespace

std::optional<std::string> run_git(const std::string& folder,
                                   const std::vector<std::string>& arguments) {
  return run_git_for(folder, arguments, kGitTimeout);
}

std::optional<std::string> run_git_unhurried(const std::string& folder,
                                             const std::vector<std::string>& arguments) {
  return run_git_for(folder, arguments, kSlowGitTimeout);
}

std::vector<std::string> status_arguments() {
  // Porcelain v2 (git 2.11, 2016) is stable across git versions and languages, and its branch
  // headers carry the commit and the branch: one process instead of three.
  return {"--no-optional-locks", "status", "--porcelain=v2", "--branch", "--untracked-files=no"};
}

GitFacts parse_status(std::string_view porcelain) {
  GitFacts facts;
  bool changed = false;
  bool saw_branch = false;
  while (!porcelain.empty()) {
    const std::size_t end = porcelain.find('\n');
    std::string_view line = porcelain.substr(0, end);
    porcelain.remove_prefix(end == std::string_view::npos ? porcelain.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (const auto oid = header_value(line, "branch.oid")) {
      if (is_hex(*oid)) facts.commit = std::string(*oid);  // "(initial)" before the first commit
    } else if (const auto head = header_value(line, "branch.head")) {
      saw_branch = true;
      if (*head != "(detached)") facts.branch = std::string(*head);
    } else if (line.front() == '#') {
      continue;  // upstream and ahead/behind headers, and any header a later git adds
    } else if (line.front() != '?' && line.front() != '!') {
      changed = true;  // "1 ", "2 " (renamed) and "u " (unmerged) entries: tracked files
    }
  }
  if (facts.commit.empty() || !saw_branch) return {};
  facts.dirty = changed;
  return facts;
}

GitFacts git_facts(const std::string& folder, const GitRunner& run) {
  const std::optional<std::string> output = run(folder, status_arguments());
  if (!output) return {};
  return parse_status(*output);
}

GitFacts git_facts(const std::string& folder) {
  if (!may_be_in_repository(folder)) return {};
  return with_ci_branch(git_facts(folder, run_git),
                        [](const char* name) { return std::getenv(name); });
}

bool may_be_in_repository(const std::string& folder) {
  if (std::getenv("GIT_DIR") != nullptr) return true;
  std::error_code error;
  std::filesystem::path path = std::filesystem::absolute(folder, error);
  if (error) return true;  // let git decide
  for (;;) {
    if (std::filesystem::symlink_status(path / ".git", error).type() !=
        std::filesystem::file_type::not_found) {
      return true;
    }
    if (!path.has_relative_path()) return false;  // the root
    path = path.parent_path();
  }
}

void record(const GitFacts& facts, Context& context) {
  context.git_commit = facts.commit;
  context.git_branch = facts.branch;
  context.git_dirty = facts.dirty;
}

}  // namespace benchkit::vcs
