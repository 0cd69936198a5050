#!/usr/bin/env bash
# Builds tests/consumer against benchkit each way a user can get it:
#   run.sh build-tree BUILD_DIR     find_package with benchkit_DIR pointing at a build folder
#   run.sh install BUILD_DIR        cmake --install into a temporary prefix, then find_package
#                                   through CMAKE_PREFIX_PATH; also pkg-config and the version
#                                   file (same major version)
#   run.sh subdirectory BUILD_DIR   add_subdirectory of this checkout
#   run.sh fetchcontent BUILD_DIR   FetchContent, pointed at this checkout
#                                   (FETCHCONTENT_SOURCE_DIR_BENCHKIT: no network)
# then runs the consumer's bench binary, its CTest test (benchkit_add_benchmark), the same
# benchmarks behind a custom main, and checks that benchkit::alloc counts allocations.
# subdirectory and fetchcontent compile benchkit itself. They share one folder, BUILD_DIR-consumer
# beside BUILD_DIR (benchkit lands in the same binary folder both ways), so the second reuses the
# first's objects and a rerun only rebuilds what changed. Beside BUILD_DIR, at the same depth
# under the checkout, the compiler sees the same relative paths as in BUILD_DIR, so with ccache
# (CCACHE_BASEDIR at the checkout) a fresh folder reuses what BUILD_DIR compiled.
set -euo pipefail
# Compiles at the lowest CPU priority: CTest runs it beside tests that time things
# (tests/integration/CMakeLists.txt); what it starts inherits the priority.
renice -n 19 $$ >/dev/null 2>&1 || true
mode=$1
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# As the Makefile sets them: paths relative to the checkout, so that builds share objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$checkout}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
consumer="$work/consumer"
# A bench binary of a build with BENCHKIT_STATIC_RUNTIME (the default) carries its own C++
# runtime and fmt: it needs neither libstdc++.so, libgcc_s.so nor libfmt.so.
check_own_runtime() {
  grep -q 'set(BENCHKIT_STATIC_RUNTIME ON)' "$build/benchkitConfig.cmake" || return 0
  local needed
  needed=$(readelf -d "$1" | grep NEEDED || true)
  case "$needed" in *libstdc++*|*libgcc_s*|*libfmt*)
    echo "$1, of a static-runtime build, needs shared runtime libraries: $needed" >&2
    exit 1 ;; esac
}
configure() {
  printf '%s\n' "$@" >"$work/configure.args"
  cmake -S "$here" -B "$consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
}
# A found package is built with flags of its own (-O2), which the results must record rather
# than benchkit's -O3: the build tree's export carried benchkit's definition beside the
# consumer's ("redefined" on every compile, benchkit's flags recorded).
own_flags=(-DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG")
expected_flags="-O2 -DNDEBUG"
case "$mode" in
  build-tree)
    # pkg-config from the build folder, as find_package works from it.
    flags=$(PKG_CONFIG_PATH="$build" pkg-config --cflags --libs benchkit)
    # shellcheck disable=SC2086  # the flags are words
    c++ -std=c++20 -O2 "$here/bench.cpp" -o "$work/pkgconfig_bench" $flags
    [ "$("$work/pkgconfig_bench" --list)" = $'make_vector/size=16\nconcatenate' ] ||
      { echo "the build folder's pkg-config build lists other benchmarks" >&2; exit 1; }
    configure -Dbenchkit_DIR="$build" "${own_flags[@]}"
    ;;
  install)
    prefix="$work/prefix"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    test -f "$prefix/lib/cmake/benchkit/benchkitConfig.cmake"
    test -f "$prefix/lib/cmake/benchkit/benchkitAddBenchmark.cmake"
    test -f "$prefix/include/benchkit/benchkit.hpp"
    test -f "$prefix/include/benchkit/bench.hpp"
    test -f "$prefix/lib/pkgconfig/benchkit.pc"
    test -x "$prefix/bin/benchkit"
    # The PostgreSQL module is installed, and the installed command loads it from there (its
    # message about the refused connection comes from the module; port 1 has no server).
    module="$prefix/lib/benchkit/libbenchkit-postgres.so"
    test -f "$module"
    answer=$(BENCHKIT_POSTGRES_MODULE="$module" "$prefix/bin/benchkit" history list \
      --store postgresql://ci@127.0.0.1:1/none 2>&1 || true)
    case "$answer" in *"cannot connect to history"*) ;;
      *) echo "the installed benchkit did not load $module: $answer" >&2; exit 1 ;; esac
    # Same major version: 0.x is accepted whatever x, 1.0 is not.
    version_file="$prefix/lib/cmake/benchkit/benchkitConfigVersion.cmake"
    for wanted in 0.0:TRUE 0.1:TRUE 1.0:FALSE; do
      cat >"$work/version.cmake" <<SCRIPT
set(PACKAGE_FIND_VERSION ${wanted%%:*})
string(REPLACE "." ";" parts \${PACKAGE_FIND_VERSION})
list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
set(PACKAGE_FIND_VERSION_PATCH 0)
set(PACKAGE_FIND_VERSION_COUNT 2)
set(CMAKE_SIZEOF_VOID_P 8)
include("$version_file")
message("\${PACKAGE_VERSION_COMPATIBLE}")
SCRIPT
      got=$(cmake -P "$work/version.cmake" 2>&1)
      [ "$got" = "${wanted##*:}" ] ||
        { echo "find_package(benchkit ${wanted%%:*}): compatible=$got, expected ${wanted##*:}" >&2; exit 1; }
    done
    # pkg-config: a bench binary built with the compiler alone.
    flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs benchkit)
    # shellcheck disable=SC2086  # the flags are words
    c++ -std=c++20 -O2 "$here/bench.cpp" -o "$work/pkgconfig_bench" $flags
    check_own_runtime "$work/pkgconfig_bench"
    [ "$("$work/pkgconfig_bench" --list)" = $'make_vector/size=16\nconcatenate' ] ||
      { echo "the pkg-config build lists other benchmarks" >&2; exit 1; }
    configure -DCMAKE_PREFIX_PATH="$prefix" "${own_flags[@]}"
    ;;
  subdirectory | fetchcontent)
    # benchkit is compiled here with the consumer's flags, left at the Release default.
    expected_flags="-O3 -DNDEBUG"
    consumer="$build-consumer"
    configure -DBENCHKIT_CONSUMER_MODE="$mode" -DBENCHKIT_SOURCE_DIR="$checkout" \
      -DFETCHCONTENT_SOURCE_DIR_BENCHKIT="$checkout"
    ;;
  *)
    echo "usage: $0 build-tree|install|subdirectory|fetchcontent BUILD_DIR" >&2
    exit 2
    ;;
esac
cmake --build "$consumer" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }
"$consumer/consumer_bench" --test --quiet
check_own_runtime "$consumer/consumer_bench"
listed=$("$consumer/consumer_bench" --list)
[ "$listed" = $'make_vector/size=16\nconcatenate' ] || { echo "unexpected --list: $listed" >&2; exit 1; }
custom=$("$consumer/consumer_custom_main" --list)
[ "$custom" = "$listed" ] || { echo "unexpected --list from a custom main: $custom" >&2; exit 1; }
json=$("$consumer/consumer_alloc_bench" --test --format json --filter make_vector)
grep -q '"allocations": 1' <<<"$json" || { echo "benchkit::alloc did not count: $json" >&2; exit 1; }
grep -q "\"compile_flags\": \"$expected_flags" <<<"$json" ||
  { echo "the consumer's compile flags ($expected_flags) were not recorded: $json" >&2; exit 1; }
if grep -q 'BENCHKIT_CONSUMER_FLAGS" redefined' "$work/build.log"; then
  grep -m3 -B2 'redefined' "$work/build.log" >&2
  echo "BENCHKIT_CONSUMER_FLAGS is defined twice for the consumer's code (above)" >&2
  exit 1
fi
# benchkit_add_benchmark registered the smoke test, and it passes.
tests=$(cd "$consumer" && ctest -N)
grep -q 'Test #1: consumer_bench$' <<<"$tests" ||
  { echo "benchkit_add_benchmark registered no test consumer_bench: $tests" >&2; exit 1; }
(cd "$consumer" && ctest --output-on-failure -L benchmark >"$work/ctest.log") ||
  { cat "$work/ctest.log" >&2; exit 1; }
grep -q '100% tests passed' "$work/ctest.log" || { cat "$work/ctest.log" >&2; exit 1; }
# Two checkouts of one project at two paths give the same bench binary, byte for byte (the
# shards of a suite built on several CI runners are then one build to `benchkit merge`): no path
# of the checkout in it, __FILE__ of the registrations included. Compiled without ccache, which
# could hand the second checkout the first one's object.
if [ "$mode" = build-tree ] || [ "$mode" = install ]; then
  mapfile -t found <"$work/configure.args"
  for copy in "$work/checkout-one" "$work/a/much/longer/path/checkout-two"; do
    mkdir -p "$copy"
    cp "$here"/CMakeLists.txt "$here"/*.cpp "$copy"/
    CCACHE_DISABLE=1 cmake -S "$copy" -B "$copy/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      "${found[@]}" >"$work/configure.log" 2>&1 ||
      { cat "$work/configure.log" >&2; exit 1; }
    CCACHE_DISABLE=1 cmake --build "$copy/build" --target consumer_bench >"$work/build.log" 2>&1 ||
      { tail -50 "$work/build.log" >&2; exit 1; }
    if strings "$copy/build/consumer_bench" | grep -F "$copy"; then
      echo "the bench binary built in $copy holds that path (above)" >&2
      exit 1
    fi
  done
  cmp "$work/checkout-one/build/consumer_bench" \
    "$work/a/much/longer/path/checkout-two/build/consumer_bench" ||
    { echo "one project checked out at two paths gave two different bench binaries" >&2; exit 1; }
fi
echo "consumer ($mode): built, ran, its CTest test passed, counted allocations, recorded its flags"
