#!/usr/bin/env python3
"""benchkit ab and bisect on a real git repository: a tiny CMake project linking benchkit, six
commits, one of which makes its benchmark ~15% slower (15% more steps of a serial xorshift loop
of ~1 ms: deterministic, and no compiler can fold it) and one of which only touches a README.

    ab_flow.py BENCHKIT_BUILD_DIR

Checks: ab finds the regression across the slow commit and says unchanged across the README
commit; a second ab rebuilds nothing (no configure or build step runs, the logs are not
rewritten); bisect names the slow commit; the working tree's uncommitted changes are built as
NEW; bad input (an unknown revision, a leftover worktree, a target missing at BASE, a project
with no bench target, a failing build, Ctrl-C) gets its message and exit status; and the user's
checkout, index, branches and stash are as they were after every command.

The cases share one repository and one build cache, in order: that keeps the whole run to a few
builds of one small file (labelled integration, not unit: it builds a CMake project against the
benchkit build folder, which the sanitizer build does not export for consumers).
"""
import os
import re
import signal
import subprocess
import sys
import time

import git_checks
from git_checks import ENV, commit, git, run

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
# Few, short rounds: a 15% change in paired turns is decided in the first batch; a wider noise
# threshold than the 2% default keeps "unchanged" reachable in 5 rounds on a loaded machine.
FAST = ["--rounds", "5", "--time-budget", "250ms", "--noise-threshold", "0.05"]

CMAKELISTS = """cmake_minimum_required(VERSION 3.25)
project(ab_flow LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(benchkit CONFIG REQUIRED)
add_executable(work_bench bench.cpp)
target_link_libraries(work_bench PRIVATE benchkit::main)
"""
TOOL = """add_executable(tool tool.cpp)
"""
BENCH = """#include <benchkit/benchkit.hpp>

#include <cstdint>

#include "steps.hpp"

// A serial chain of xorshift steps: each depends on the one before.
""" + git_checks.WALK + """
static void work(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(88172645463325252ull),
                          benchkit::black_box<std::uint64_t>(kSteps)); });
}
BENCHKIT(work);
"""


CHECKS = git_checks.Checks(BENCHKIT)
expect = CHECKS.expect
benchkit = CHECKS.benchkit


def main():
    work, repo = git_checks.new_repository("benchkit-ab-flow-")
    c = [commit(repo, "initial: one benchmark", {
        "CMakeLists.txt": CMAKELISTS, "bench.cpp": BENCH, "steps.hpp": git_checks.steps(400000),
        ".gitignore": "build/\n", "README.md": "# ab flow\n"})]
    c.append(commit(repo, "add a tool", {"CMakeLists.txt": CMAKELISTS + TOOL,
                                         "tool.cpp": "int main() { return 0; }\n"}))
    c.append(commit(repo, "comment the walk", {"bench.cpp": BENCH.replace("// A serial", "// One\n// A serial")}))
    c.append(commit(repo, "walk 15% further", {"steps.hpp": git_checks.steps(460000)}))
    c.append(commit(repo, "README: say what it is", {"README.md": "# ab flow\n\nA test.\n"}))
    c.append(commit(repo, "tool: return 0 explicitly", {"tool.cpp": "int main() { return 0; }\n// done\n"}))
    git(repo, "stash", "list")
    # The user's build folder: configured, whose settings every revision is built with.
    run(["cmake", "-S", repo, "-B", os.path.join(repo, "build"), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release", "-Dbenchkit_DIR=" + BUILD], repo)

    # Across the slow commit: regressed, exit 1 with --fail-on-regression.
    done = benchkit(repo, "ab", c[2], c[3], "--fail-on-regression", *FAST)
    expect(done.returncode == 1 and re.search(r"work\s.*regressed", done.stdout),
           "ab across the slow commit says regressed and exits 1", done)
    expect(c[3][:12] in done.stdout and c[2][:12] in done.stdout,
           "the method note names both commits", done)
    # Across the README commit: unchanged.
    page = os.path.join(os.path.dirname(repo), "ab.html")  # outside the checkout
    done = benchkit(repo, "ab", c[3], c[4], "--fail-on-regression", "--format", "markdown",
                    "--html", page, *FAST)
    expect(done.returncode == 0 and re.search(r"work.*unchanged", done.stdout),
           "ab across the README commit says unchanged (Markdown)", done)
    html = open(page).read() if os.path.exists(page) else ""
    expect(html.startswith("<!DOCTYPE html>") and "work" in html and "unchanged" in html,
           "ab --html writes the comparison as a page", done)
    # Again: nothing is configured or built.
    logs = [os.path.join(root, name) for root, _, names in os.walk(os.path.join(repo, ".benchkit"))
            for name in names if name.endswith(".log")]
    stamps = {path: os.stat(path).st_mtime_ns for path in logs}
    history = os.path.join(os.path.dirname(repo), "ab-history.db")  # outside the checkout
    done = benchkit(repo, "ab", c[2], c[3], "--record", "--store", history, *FAST)
    expect(done.stderr.count("nothing rebuilt") == 2 and "configuring" not in done.stderr
           and "building" not in done.stderr, "a second ab rebuilds nothing", done)
    expect(all(os.stat(p).st_mtime_ns == t for p, t in stamps.items()) and stamps,
           "no build log was written again", done)
    # --record keeps both runs in the history, each under its own commit.
    listed = benchkit(repo, "history", "list", "--store", history)
    expect(listed.returncode == 0 and "2 runs in" in listed.stdout
           and c[2][:8] in listed.stdout and c[3][:8] in listed.stdout,
           "ab --record keeps the BASE and the NEW run with their commits", listed)

    # bisect names the slow commit and keeps a log of its steps.
    done = benchkit(repo, "bisect", c[0], c[5], "--bench", "^work$", *FAST)
    expect(done.returncode == 0 and ("first bad commit: %s walk 15%% further" % c[3]) in done.stdout,
           "bisect names the slow commit", done)
    log = os.path.join(repo, ".benchkit", "bisect", "bisect.log")
    lines = [l for l in open(log).read().splitlines() if l and not l.startswith("#")] if os.path.exists(log) else []
    expect(len(lines) >= 2 and all(len(l.split("\t")) == 9 for l in lines),
           "the bisection log has one line per step", done)
    found = re.search(r"(\d+) revisions built", done.stdout)
    builds = int(found.group(1)) if found else 99
    expect(builds <= 2 + 3, "bisect of 5 commits built at most 5 revisions (%d)" % builds, done)

    # NEW defaults to the working tree: the uncommitted change undoes the slow-down.
    with open(os.path.join(repo, "steps.hpp"), "w") as out:
        out.write(git_checks.steps(400000))
    done = benchkit(repo, "ab", "HEAD", *FAST)
    expect(done.returncode == 0 and "uncommitted changes" in done.stdout
           and re.search(r"work.*improved", done.stdout), "the working tree is NEW, dirty, and faster", done)
    git(repo, "checkout", "--quiet", "--", "steps.hpp")

    # Whole commands of each build, interleaved in rounds.
    done = benchkit(repo, "ab", c[4], c[5], "--cmd", "{build}/tool", "--time-budget", "300ms")
    expect(done.returncode == 0 and "BASE " + c[4][:12] in done.stdout and "paired rounds" in done.stdout,
           "ab --cmd runs each build's command interleaved", done)
    # Ctrl-C to the whole job (as a terminal sends it) once some rounds ran, each run of the
    # command marking a file: the comparison of the rounds that finished, exit 130.
    marks = os.path.join(work, "cmd-marks")
    proc = subprocess.Popen([BENCHKIT, "ab", c[4], c[5], "--cmd", "sh -c 'echo x >> %s; sleep 0.02'" % marks,
                             "--time-budget", "60s"], cwd=repo, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    waited = 0.0
    while waited < 60 and (not os.path.exists(marks) or len(open(marks).readlines()) < 16):
        time.sleep(0.05)
        waited += 0.05
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    expect(proc.returncode == 130 and "Ctrl-C stopped them" in out
           and "interrupted: the verdicts rest on the rounds that finished" in err,
           "Ctrl-C during ab --cmd shows the comparison of the rounds so far, exit 130",
           subprocess.CompletedProcess([], proc.returncode, out, err))

    # Bad input.
    done = benchkit(repo, "ab", "no-such-tag", c[5])
    expect(done.returncode == 2 and '"no-such-tag"' in done.stderr, "an unknown revision is named", done)
    done = benchkit(repo, "ab", c[0], c[1], "--target", "tool")
    expect(done.returncode == 2 and "does not exist at BASE" in done.stderr,
           "a target missing at BASE is named", done)
    # A worktree without its marker: what a run stopped while checking out leaves.
    marker = os.path.join(repo, ".benchkit", "worktrees", c[0][:12] + ".ready")
    if os.path.exists(marker):
        os.remove(marker)
    os.makedirs(os.path.join(repo, ".benchkit", "worktrees", c[0][:12]), exist_ok=True)
    done = benchkit(repo, "ab", c[0], c[1])
    expect(done.returncode == 2 and "interrupted" in done.stderr and "worktree remove" in done.stderr,
           "a worktree left by an interrupted run is named with its fix", done)
    run(["git", "-C", repo, "worktree", "remove", "--force", os.path.join(repo, ".benchkit", "worktrees", c[0][:12])], repo, check=False)
    done = benchkit(repo, "ab", c[4], c[5], "--build", "echo compiling; exit 7", "--binary", "x")
    expect(done.returncode == 1 and "NEW " + c[5][:12] in done.stderr and "compiling" in done.stderr
           and "status 7" in done.stderr, "a failed build names the revision and shows its log", done)

    # Ctrl-C while building: exit 130, the build's processes gone.
    proc = subprocess.Popen([BENCHKIT, "ab", c[4], c[5], "--build", "sleep 47.25", "--binary", "x"],
                            cwd=repo, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    time.sleep(0.3)
    sleeping = subprocess.run(["pgrep", "-f", "sleep 47.25"], capture_output=True, text=True).stdout.strip()
    expect(proc.returncode == 130 and "interrupted" in err and not sleeping,
           "Ctrl-C stops the build, exit 130 (exit %s, left: %r)" % (proc.returncode, sleeping),
           subprocess.CompletedProcess([], proc.returncode, out, err))

    # A project with no bench target.
    bare = os.path.join(work, "bare")
    os.makedirs(bare)
    git(bare, "init", "--quiet", "--initial-branch=main")
    commit(bare, "a tool only", {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.25)\nproject(bare CXX)\n" + TOOL,
                                 "tool.cpp": "int main() { return 0; }\n", ".gitignore": "build/\n"})
    commit(bare, "again", {"tool.cpp": "int main() { return 1 - 1; }\n"})
    run(["cmake", "-S", bare, "-B", os.path.join(bare, "build"), "-G", "Ninja"], bare)
    done = benchkit(bare, "ab", "HEAD~1", "HEAD")
    expect(done.returncode == 2 and "no bench target" in done.stderr and "tool" in done.stderr,
           "a project with no bench target is told how to add one", done)

    subprocess.run(["rm", "-rf", work])
    CHECKS.finish()


main()
