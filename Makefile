# benchkit: the two commands a new user types.
#   make demo   install what is missing, build, run the examples end to end
#   make test   install what is missing, build, run every test (also under ASan+UBSan, and the
#               fuzzers briefly)
SHELL := /bin/bash
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# ccache: paths relative to the checkout, so that a fresh clone elsewhere (as CI makes) reuses
# what an earlier build compiled.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all deps deps-demo configure build demo test test-release test-asan test-fuzz format clean

all: build

deps:
	@scripts/install-deps

# Only what building benchkit and running the demo need (no test or profiling tools).
deps-demo:
	@scripts/install-deps demo

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	@# A folder make demo configured before GoogleTest was installed: configured again, with the tests.
	@if grep -q '^GTest_DIR:PATH=.*NOTFOUND' $(BUILD)/CMakeCache.txt; then cmake $(BUILD); fi
	cmake --build $(BUILD) -j $(JOBS)

# The demo builds the command, the examples and the programs it shows, not the tests.
demo: deps-demo
	@[ -f $(BUILD)/build.ninja ] || cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target benchkit_demo
	scripts/demo $(BUILD)

# One CTest slot more than the cores: consumer_subdirectory compiles the library for minutes at
# the lowest CPU priority (tests/integration/CMakeLists.txt), and with its own slot the other
# tests keep both cores (docs/build-time.md, "The release stage's tests packed").
test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $$(( $(JOBS) + 1 ))

# The sanitizer build compiles with clang: about half GCC's CPU time for the same sources at
# -O0 with ASan + UBSan (docs/build-time.md, "The sanitizer run"). ASAN_CXX=g++ to compare.
ASAN_CXX ?= clang++
# The sanitizer and fuzzer builds link with lld: a third of ld.bfd's CPU time for their large
# debug-info links (docs/build-time.md, "Linking the test builds with lld"). TEST_LD=bfd to
# compare. Their relocations are not packed (lld 14 does not know -z pack-relative-relocs, and
# test binaries do not need it).
TEST_LD ?= lld
# Their debug information is line tables only (-g1, clang's -gline-tables-only): what a
# sanitizer's or libFuzzer's stack trace needs (files, lines, inlined frames), for 7% less of the
# sanitizer build's CPU time than full -g (docs/build-time.md, "Line tables only"). For a
# debugger: TEST_DEBUG_INFO=-g.
TEST_DEBUG_INFO ?= -g1
TEST_LINK_FLAGS = -DCMAKE_CXX_FLAGS_DEBUG=$(TEST_DEBUG_INFO) \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=$(TEST_LD) \
  -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=$(TEST_LD) -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=$(TEST_LD) \
  -DBENCHKIT_PACK_RELOCATIONS=OFF
$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=$(ASAN_CXX) \
	  -DBENCHKIT_SANITIZE=ON $(TEST_LINK_FLAGS) \
	  -DBENCHKIT_BUILD_EXAMPLES=OFF -DBENCHKIT_BUILD_BENCH=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

# The libFuzzer targets (clang), each run briefly on its seed corpus; only they are built here.
$(FUZZ_BUILD)/build.ninja: | deps
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  $(TEST_LINK_FLAGS) -DBENCHKIT_FUZZ=ON -DBENCHKIT_BUILD_TESTS=OFF -DBENCHKIT_BUILD_EXAMPLES=OFF \
	  -DBENCHKIT_BUILD_BENCH=OFF $(CMAKE_FLAGS)

test-fuzz: deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target benchkit_fuzzers
	cd $(FUZZ_BUILD) && ctest --output-on-failure -j $(JOBS) -L fuzz

test: test-release test-asan test-fuzz

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
