#!/usr/bin/env bash
# Builds tests/consumer against benchkit the two ways a user can:
#   run.sh build-tree BUILD_DIR   find_package with benchkit_DIR pointing at a build folder
#   run.sh install BUILD_DIR      cmake --install into a prefix, then CMAKE_PREFIX_PATH
# then runs the consumer's bench binary (and the same benchmarks behind a custom main), and
# checks that benchkit::alloc counts allocations.
set -euo pipefail
mode=$1
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
case "$mode" in
  build-tree)
    cmake -S "$here" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -Dbenchkit_DIR="$build" "${launcher[@]}" >/dev/null
    ;;
  install)
    cmake --install "$build" --prefix "$work/prefix" >/dev/null
    test -f "$work/prefix/lib/cmake/benchkit/benchkitConfig.cmake"
    test -f "$work/prefix/include/benchkit/benchkit.hpp"
    test -f "$work/prefix/include/benchkit/bench.hpp"
    test -x "$work/prefix/bin/benchkit"
    cmake -S "$here" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" >/dev/null
    ;;
  *)
    echo "usage: $0 build-tree|install BUILD_DIR" >&2
    exit 2
    ;;
esac
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer_bench" --test --quiet
listed=$("$work/consumer/consumer_bench" --list)
[ "$listed" = $'make_vector/size=16\nconcatenate' ] || { echo "unexpected --list: $listed" >&2; exit 1; }
custom=$("$work/consumer/consumer_custom_main" --list)
[ "$custom" = "$listed" ] || { echo "unexpected --list from a custom main: $custom" >&2; exit 1; }
json=$("$work/consumer/consumer_alloc_bench" --test --format json --filter make_vector)
echo "$json" | grep -q '"allocations": 1' || { echo "benchkit::alloc did not count: $json" >&2; exit 1; }
echo "$json" | grep -q '"compile_flags": "-O3 -DNDEBUG' ||
  { echo "the consumer's compile flags were not recorded: $json" >&2; exit 1; }
echo "consumer ($mode): built, ran, counted allocations, recorded its flags"
