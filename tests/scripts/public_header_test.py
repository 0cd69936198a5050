#!/usr/bin/env python3
"""The public header stays lighter than Google Benchmark's (issue 39, item 4), and complete.

    public_header_test.py COMPILER COMPILER_ID INCLUDE_DIR FIXTURES_DIR

1. `#include <benchkit/benchkit.hpp>` preprocessed with COMPILER (-std=c++20 -E, the command of
   docs/build-time.md) is at most LIMITS[COMPILER_ID] lines;
2. a user's file that includes only benchkit.hpp compiles, and one that names std::chrono
   durations (including <chrono> itself) compiles, both with -Wall -Wextra -Werror;
3. a time budget that is not a whole number of nanoseconds does not compile, and the error says
   how to round it.
Exit 0 when all hold; otherwise each failure is printed and the exit status is 1.
"""
import os
import subprocess
import sys

# Lines of `echo '#include <benchmark/benchmark.h>' | COMPILER -std=c++20 -E -x c++ - | wc -l`
# for Google Benchmark 1.7.1 (Debian 12's libbenchmark-dev 1.7.1-1, /usr/include/benchmark),
# measured on 2026-12-04 with g++ 12.2.0 and clang++ 14.0.6. benchkit.hpp must not be heavier.
LIMITS = {"GNU": 63205, "Clang": 62703}
FLAGS = ["-std=c++20", "-Wall", "-Wextra", "-Werror"]


def preprocessed_lines(compiler, include):
    done = subprocess.run([compiler, "-std=c++20", "-I", include, "-E", "-x", "c++", "-"],
                          input="#include <benchkit/benchkit.hpp>\n", capture_output=True,
                          text=True)
    if done.returncode != 0:
        return None, done.stderr
    return done.stdout.count("\n"), ""


def compile_only(compiler, include, source):
    return subprocess.run([compiler, *FLAGS, "-I", include, "-fsyntax-only", source],
                          capture_output=True, text=True)


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    compiler, compiler_id, include, fixtures = sys.argv[1:]
    if compiler_id not in LIMITS:
        print(f"public_header_test: no measured limit for compiler id {compiler_id}; add "
              f"benchmark.h's count for it to LIMITS", file=sys.stderr)
        return 2
    failures = []
    lines, error = preprocessed_lines(compiler, include)
    limit = LIMITS[compiler_id]
    if lines is None:
        failures.append(f"benchkit.hpp does not preprocess with {compiler}:\n{error}")
    else:
        print(f"benchkit.hpp: {lines} preprocessed lines with {compiler} ({compiler_id}); "
              f"Google Benchmark 1.7.1's benchmark.h: {limit}")
        if lines > limit:
            failures.append(f"benchkit.hpp preprocesses to {lines} lines with {compiler}, more "
                            f"than benchmark.h's {limit}: keep heavy headers (<chrono>, "
                            f"<functional>, <memory>) out of include/benchkit/ (docs/build-time.md)")
    for name in ("no_chrono_user.cpp", "chrono_user.cpp"):
        done = compile_only(compiler, include, os.path.join(fixtures, name))
        if done.returncode != 0:
            failures.append(f"{name} does not compile with {compiler}:\n{done.stderr}")
    refused = compile_only(compiler, include, os.path.join(fixtures, "fractional_budget.cpp"))
    if refused.returncode == 0:
        failures.append("fractional_budget.cpp compiled: a fractional time budget must be refused")
    elif "whole number of nanoseconds" not in refused.stderr:
        failures.append("fractional_budget.cpp is refused without saying how to round the "
                        f"duration:\n{refused.stderr}")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
