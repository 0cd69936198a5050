#!/usr/bin/env python3
"""benchkit ab --mode instructions on a real git repository: a tiny CMake project linking
benchkit with three benchmarks, two commits, the second making one benchmark walk 10% further.

    ab_counted.py BENCHKIT_BUILD_DIR

Checks: both revisions' bench binaries are counted under valgrind (--mode instructions); the
benchmark that walks further reads 10% +- 0.5% more instructions and is `regressed`, the two
others `unchanged` (exit 1 with --fail-on-regression); --record keeps both counted runs in the
history with their commits; --count-threshold moves the verdict; flags of the time mode and
--cmd are refused before anything is built; the user's checkout is left as it was.

Kept cheap: one build per revision of one small file, --sample-size 2 (counts repeat exactly),
and benchmarks of a few thousand instructions, so each valgrind process is mostly its start-up.
Labelled integration, not unit: it builds a consumer project against the benchkit build folder
(which the sanitizer build does not export), and valgrind cannot run AddressSanitizer binaries
anyway (ASan reserves terabytes of shadow address space at fixed addresses, which valgrind's
own memory layout does not leave free).
"""
import json
import os
import re
import subprocess
import sys

import git_checks
from git_checks import commit, run

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
SMALL = ["--", "--sample-size", "2"]

CMAKELISTS = """cmake_minimum_required(VERSION 3.25)
project(ab_counted LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(benchkit CONFIG REQUIRED)
add_executable(count_bench bench.cpp)
target_link_libraries(count_bench PRIVATE benchkit::main)
"""
BENCH = """#include <benchkit/benchkit.hpp>

#include <cstdint>

#include "steps.hpp"

""" + git_checks.WALK + """
static void walk_steps(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(88172645463325252ull),
                          benchkit::black_box<std::uint64_t>(kSteps)); });
}
BENCHKIT(walk_steps);

static void walk_fixed(benchkit::Bencher& b) {
  b.iter([] { return walk(benchkit::black_box<std::uint64_t>(7),
                          benchkit::black_box<std::uint64_t>(1500)); });
}
BENCHKIT(walk_fixed);

static void sum_small(benchkit::Bencher& b) {
  b.iter([] {
    std::uint64_t sum = 0;
    for (std::uint64_t i = 0; i < benchkit::black_box<std::uint64_t>(600); ++i) sum += i * i;
    return sum;
  });
}
BENCHKIT(sum_small);
"""


CHECKS = git_checks.Checks(BENCHKIT)
expect = CHECKS.expect
benchkit = CHECKS.benchkit


def verdicts(done):
    try:
        document = json.loads(done.stdout)
    except ValueError:
        return {}
    return {b["name"]: b for b in document.get("benchmarks", [])}


def main():
    work, repo = git_checks.new_repository("benchkit-ab-counted-")
    base = commit(repo, "three benchmarks", {
        "CMakeLists.txt": CMAKELISTS, "bench.cpp": BENCH, "steps.hpp": git_checks.steps(2000),
        ".gitignore": "build/\n"})
    new = commit(repo, "walk 10% further", {"steps.hpp": git_checks.steps(2200)})
    run(["cmake", "-S", repo, "-B", os.path.join(repo, "build"), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release", "-Dbenchkit_DIR=" + BUILD], repo)

    # Refused before anything is built: the time mode's flags, and whole commands.
    done = benchkit(repo, "ab", base, new, "--mode", "instructions", "--rounds", "3")
    expect(done.returncode == 2 and "--rounds is for --mode time" in done.stderr
           and "building" not in done.stderr, "--rounds with --mode instructions is refused", done)
    done = benchkit(repo, "ab", base, new, "--mode", "instructions", "--cmd", "{build}/x")
    expect(done.returncode == 2 and "benchkit run --mode instructions" in done.stderr,
           "--cmd with --mode instructions points to benchkit run", done)

    done = benchkit(repo, "ab", base, new, "--", "--mode", "instructions")
    expect(done.returncode == 2 and "--mode goes before --" in done.stderr,
           "--mode after -- is pointed to ab's own --mode", done)

    history = os.path.join(work, "history.db")  # outside the checkout
    done = benchkit(repo, "ab", base, new, "--mode", "instructions", "--fail-on-regression",
                    "--format", "json", "--record", "--store", history, *SMALL)
    found = verdicts(done)  # also: stdout is one JSON document (--record says nothing there)
    walked = found.get("walk_steps", {})
    expect(done.returncode == 1 and walked.get("verdict") == "regressed",
           "the benchmark walking 10% further is regressed, exit 1", done)
    expect(abs(walked.get("ratio", 0) - 1.10) <= 0.005,
           "it reads 10%% +- 0.5%% more instructions (ratio %s)" % walked.get("ratio"), done)
    expect(found.get("walk_fixed", {}).get("verdict") == "unchanged"
           and found.get("sum_small", {}).get("verdict") == "unchanged",
           "the two others are unchanged", done)
    expect(done.stderr.count("under valgrind") == 2 and "counting 3 benchmarks" in done.stderr,
           "both builds' binaries were counted under valgrind", done)
    listed = benchkit(repo, "history", "list", "--store", history)
    expect(listed.returncode == 0 and "2 runs in" in listed.stdout
           and base[:8] in listed.stdout and new[:8] in listed.stdout,
           "--record keeps the BASE and the NEW counted run with their commits", listed)

    # The count threshold decides: a 10% change is within +-20%. The builds are kept.
    done = benchkit(repo, "ab", base, new, "--mode", "instructions", "--bench", "^walk_steps$",
                    "--count-threshold", "0.2", "--fail-on-regression", *SMALL)
    expect(done.returncode == 0 and re.search(r"walk_steps\s.*\+10\.0%.*unchanged", done.stdout)
           and "count threshold ±20%" in done.stdout and done.stderr.count("nothing rebuilt") == 2,
           "--count-threshold 0.2 makes the 10% change unchanged (console)", done)

    subprocess.run(["rm", "-rf", work])
    CHECKS.finish()


main()
