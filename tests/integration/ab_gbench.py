#!/usr/bin/env python3
"""benchkit ab and bisect on a real git repository whose bench target is a Google Benchmark
suite: a tiny CMake project linking Debian's libbenchmark, three commits, the third making one
benchmark walk three times as far (a change no loaded CI machine leaves undecided).

    ab_gbench.py BENCHKIT_BUILD_DIR

Checks: without --target the error says a Google Benchmark target is named with --target; with
it, both revisions' binaries run side by side as `benchkit compare OLD NEW` runs them (the method
note says so), the benchmark that walks further is `regressed` (exit 1 with
--fail-on-regression) and the other is not; --mode instructions is refused for such a target;
bisect finds the commit that made it slower; the user's checkout is left as it was.
"""
import json
import os
import subprocess
import sys

import git_checks
from git_checks import commit, run

BUILD = os.path.abspath(sys.argv[1])
BENCHKIT = os.path.join(BUILD, "benchkit")
QUICK = ["--rounds", "10", "--max-rounds", "40", "--", "--benchmark_min_time=0.01"]

CMAKELISTS = """cmake_minimum_required(VERSION 3.16)
project(ab_gbench LANGUAGES CXX)
find_package(benchmark REQUIRED)
add_executable(gb_bench bench.cpp)
target_link_libraries(gb_bench PRIVATE benchmark::benchmark benchmark::benchmark_main)
"""
BENCH = """#include <benchmark/benchmark.h>

#include <cstdint>

#include "steps.hpp"

""" + git_checks.WALK + """
static void BM_walk(benchmark::State& state) {
  std::uint64_t x = 88172645463325252ull;
  for (auto _ : state) {
    x = walk(x, kSteps);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_walk);

static void BM_fixed(benchmark::State& state) {
  std::uint64_t x = 7;
  for (auto _ : state) {
    x = walk(x, 1500);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_fixed);
"""

CHECKS = git_checks.Checks(BENCHKIT)
expect = CHECKS.expect
benchkit = CHECKS.benchkit


def main():
    work, repo = git_checks.new_repository("benchkit-ab-gbench-")
    base = commit(repo, "two benchmarks", {
        "CMakeLists.txt": CMAKELISTS, "bench.cpp": BENCH, "steps.hpp": git_checks.steps(2000),
        ".gitignore": "build/\n"})
    commit(repo, "a comment", {"README": "nothing that runs\n"})
    new = commit(repo, "walk three times as far", {"steps.hpp": git_checks.steps(6000)})
    run(["cmake", "-S", repo, "-B", os.path.join(repo, "build"), "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release"], repo)

    done = benchkit(repo, "ab", base, new, *QUICK)
    expect(done.returncode == 2 and "a Google Benchmark target too" in done.stderr,
           "without --target the error says to name a Google Benchmark target", done)

    done = benchkit(repo, "ab", base, new, "--target", "gb_bench", "--mode", "instructions")
    expect(done.returncode == 2 and "--mode instructions counts benchkit bench binaries"
           in done.stderr, "--mode instructions is refused for a Google Benchmark target", done)

    done = benchkit(repo, "ab", base, new, "--target", "gb_bench", "--fail-on-regression",
                    "--format", "json", *QUICK)
    try:
        found = {b["name"]: b for b in json.loads(done.stdout).get("benchmarks", [])}
        note = json.loads(done.stdout).get("method_note", "")
    except ValueError:
        found, note = {}, ""
    expect(done.returncode == 1 and found.get("BM_walk", {}).get("verdict") == "regressed",
           "the benchmark walking three times as far is regressed, exit 1", done)
    expect(found.get("BM_fixed", {}).get("verdict") != "regressed",
           "the other is not regressed (%s)" % found.get("BM_fixed", {}).get("verdict"), done)
    expect("Google Benchmark binaries, as benchkit compare OLD NEW runs them" in note,
           "the method note says how Google Benchmark binaries were run", done)

    # The step between the ends is an A/A comparison, which a loaded machine (ctest -j2 beside
    # compilers) can leave undecided at ±2% (an interval of [0.75, 1.41] was seen): a threshold of
    # ±50% still tells a change of three times, and lets that step be called unchanged.
    done = benchkit(repo, "bisect", base, new, "--target", "gb_bench", "--bench", "^BM_walk$",
                    "--noise-threshold", "0.5", *QUICK)
    expect(done.returncode == 0 and new[:12] in done.stdout and "first bad" in done.stdout,
           "bisect names the commit that made BM_walk slower", done)

    subprocess.run(["rm", "-rf", work])
    CHECKS.finish()


main()
