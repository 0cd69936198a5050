#include "formats/profile_files.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::formats {
namespace {

using ::testing::ElementsAre;

// A callgrind profile as valgrind writes it with --compress-strings=no --compress-pos=no (and
// one name compressed, as older versions do): main calls work twice and helper once.
constexpr const char* kCallgrind = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir Dr
summary: 1110 0
fl=/src/a.cpp
fn=(1) main
10 10
cfl=/src/a.cpp
cfn=(2) work
calls=2 20
11 1000
cfn=helper
calls=1 30
12 100
fn=(2)
20 600
21 400
fn=helper
30 100
totals: 1110 0
)";

TEST(CallgrindProfile, ExclusiveInclusiveAndTheHottestLine) {
  const auto profile = parse_callgrind_profile(kCallgrind);
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_EQ(profile->total, 1110.0);
  ASSERT_EQ(profile->functions.size(), 3u);
  EXPECT_EQ(profile->functions[0].name, "work");
  EXPECT_EQ(profile->functions[0].exclusive, 1000.0);
  EXPECT_EQ(profile->functions[0].line, 20);
  EXPECT_EQ(profile->functions[0].file, "/src/a.cpp");
  EXPECT_EQ(profile->functions[2].name, "main");
  EXPECT_EQ(profile->functions[2].inclusive, 1110.0);
  EXPECT_EQ(profile->calls.size(), 2u);
}

TEST(CallgrindProfile, FoldedStacksSplitTheInclusiveCostAlongTheCalls) {
  const auto profile = parse_callgrind_profile(kCallgrind);
  ASSERT_TRUE(profile);
  const auto stacks = fold_call_graph(*profile);
  double total = 0.0;
  for (const auto& stack : stacks) {
    total += stack.value;
    if (stack.frames == std::vector<std::string>{"main", "work"}) {
      EXPECT_EQ(stack.value, 1000.0);
    }
    if (stack.frames == std::vector<std::string>{"main"}) {
      EXPECT_EQ(stack.value, 10.0);
    }
  }
  EXPECT_DOUBLE_EQ(total, 1110.0);
}

TEST(CallgrindProfile, AFileWithoutEventsIsRefused) {
  EXPECT_FALSE(parse_callgrind_profile("fn=main\n10 10\n"));
  EXPECT_FALSE(parse_callgrind_profile("events: Dr\nfn=main\n10 10\n", "Ir"));
}

constexpr const char* kMassif = R"(desc: --depth=40
cmd: ./bench
time_unit: i
#-----------
snapshot=0
#-----------
time=0
mem_heap_B=0
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=1
#-----------
time=100
mem_heap_B=90000
mem_heap_extra_B=16
mem_stacks_B=0
heap_tree=peak
n3: 90000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 65536 0x1092DA: allocate (new_allocator.h:137)
  n1: 65536 0x1092DA: vector (stl_vector.h:552)
   n1: 65536 0x1092DA: allocate_blocks() (profile_bench.cpp:40)
    n0: 65536 0x10913A: main (profile_bench.cpp:60)
 n1: 16384 0x109300: setup_allocation() (profile_bench.cpp:35)
  n0: 16384 0x10913A: main (profile_bench.cpp:55)
 n0: 8080 in 4 places, all below massif's threshold (1.00%)
)";

TEST(MassifPeak, ThePeakAndTheSitesBehindIt) {
  const auto peak = parse_massif_peak(kMassif);
  ASSERT_TRUE(peak) << peak.error().message;
  EXPECT_EQ(peak->bytes, 90000.0);
  ASSERT_EQ(peak->sites.size(), 3u);
  EXPECT_EQ(peak->sites[0].function, "allocate_blocks()");
  EXPECT_EQ(peak->sites[0].location, "profile_bench.cpp:40");
  EXPECT_EQ(peak->sites[0].bytes, 65536.0);
  EXPECT_EQ(peak->sites[0].stack.size(), 4u);
  EXPECT_EQ(peak->sites[1].function, "setup_allocation()");
  EXPECT_FALSE(parse_massif_peak("snapshot=0\nheap_tree=empty\n"));
}

// Without debug information the allocating code inlined into the routine runs in benchkit's call
// of it: massif names that call (its location the binary), and the site is the routine.
TEST(MassifPeak, AllocationsInlinedIntoTheRoutineAreTheRoutinesSite) {
  const std::string text =
      "heap_tree=peak\n"
      "n1: 4096 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
      " n1: 4096 0x10A000: benchkit::Bencher::run_routine<benchkit::Bencher::iter<f()::{lambda()"
      "#1}>(f()::{lambda()#1}&&)::{lambda(unsigned long, benchkit::detail::Timer&)#1}>(benchkit::"
      "Bencher::iter<f()::{lambda()#1}>(f()::{lambda()#1}&&)::{lambda(unsigned long, "
      "benchkit::detail::Timer&)#1}&)::{lambda(void*, unsigned long, benchkit::detail::Timer&)#1}"
      "::_FUN(void*, unsigned long, benchkit::detail::Timer&) (in /build/bench)\n"
      "  n0: 4096 0x10B000: benchkit::measure::Engine::run_routine(benchkit::detail::Routine, "
      "benchkit::detail::BencherState&) (in /build/bench)\n";
  const auto peak = parse_massif_peak(text);
  ASSERT_TRUE(peak) << peak.error().message;
  ASSERT_EQ(peak->sites.size(), 1u);
  EXPECT_EQ(peak->sites[0].function, kRoutineSite);
}

TEST(StraceRegion, OnlyTheCallsBetweenTheMarks) {
  const std::string trace =
      "100 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY) = 3 <0.000020>\n"
      "100 access(\"/begin\", F_OK) = -1 ENOENT (No such file) <0.000005>\n"
      "100 getppid() = 7 <0.000002>\n"
      "101 read(3,  <unfinished ...>\n"
      "100 getppid() = 7 <0.000003>\n"
      "101 <... read resumed>\"x\", 1) = 1 <0.000100>\n"
      "100 unlink(\"/nothere\") = -1 ENOENT (No such file or directory) <0.000004>\n"
      "100 --- SIGCHLD {si_signo=SIGCHLD} ---\n"
      "100 access(\"/end\", F_OK) = -1 ENOENT (No such file) <0.000005>\n"
      "100 write(1, \"done\", 4) = 4 <0.000010>\n";
  const auto table = parse_strace_region(trace, "\"/begin\"", "\"/end\"");
  ASSERT_TRUE(table) << table.error().message;
  ASSERT_EQ(table->size(), 3u);
  EXPECT_EQ((*table)[0].name, "getppid");
  EXPECT_EQ((*table)[0].calls, 2u);
  EXPECT_NEAR((*table)[0].seconds, 0.000005, 1e-12);
  for (const auto& row : *table) {
    if (row.name == "unlink") {
      EXPECT_EQ(row.errors, 1u);
    }
    if (row.name == "read") {
      EXPECT_EQ(row.calls, 1u);
    }
    EXPECT_NE(row.name, "openat");
    EXPECT_NE(row.name, "write");
  }
  EXPECT_FALSE(parse_strace_region("100 getppid() = 1\n", "\"/begin\"", "\"/end\""));
}

TEST(PerfScript, SamplesBecomeFoldedStacksRootFirst) {
  const std::string script =
      "bench 10 1.0: 250000 cpu-clock:\n"
      "\t    1139 mix+0x19 (/tmp/bench)\n"
      "\t    1200 hot_function+0x10 (/tmp/bench)\n"
      "\t    1300 main+0x5 (/tmp/bench)\n"
      "\n"
      "bench 10 1.1: 250000 cpu-clock:\n"
      "\t    1139 mix+0x22 (/tmp/bench)\n"
      "\t    1200 hot_function+0x10 (/tmp/bench)\n"
      "\t    1300 main+0x5 (/tmp/bench)\n"
      "\n"
      "bench 10 1.2: 250000 cpu-clock:\n"
      "\t    1300 main+0x9 (/tmp/bench)\n";
  const SampledProfile profile = parse_perf_script(script);
  EXPECT_EQ(profile.total, 3.0);
  ASSERT_EQ(profile.stacks.size(), 2u);
  EXPECT_THAT(profile.stacks[0].frames, ElementsAre("main"));
  EXPECT_THAT(profile.stacks[1].frames, ElementsAre("main", "hot_function", "mix"));
  EXPECT_EQ(profile.stacks[1].value, 2.0);
  EXPECT_EQ(profile.functions[0].name, "mix");
  EXPECT_EQ(profile.functions[0].exclusive, 2.0);
  for (const auto& f : profile.functions) {
    if (f.name == "main") {
      EXPECT_EQ(f.inclusive, 3.0);
    }
  }
}

TEST(HeaptrackPrint, PeakCallsAndConsumers) {
  const std::string text =
      "MOST CALLS TO ALLOCATION FUNCTIONS\n"
      "100 calls to allocation functions with 2.40K peak consumption from\n"
      "allocate_blocks(int)\n"
      "\n"
      "PEAK MEMORY CONSUMERS\n"
      "400.00K peak memory consumed over 100 calls from\n"
      "std::__new_allocator<>::allocate(unsigned long, void const*)\n"
      "  at /usr/include/c++/12/bits/new_allocator.h:137\n"
      "  in /tmp/t\n"
      "allocate_blocks(int)\n"
      "  at /tmp/t.cpp:3\n"
      "100 calls with 400.00K peak consumption from:\n"
      "    main\n"
      "      at /tmp/t.cpp:4\n"
      "\n"
      "MOST TEMPORARY ALLOCATIONS\n"
      "calls to allocation functions: 210 (70000/s)\n"
      "peak heap memory consumption: 480.22K\n";
  const HeaptrackSummary summary = parse_heaptrack_print(text);
  ASSERT_TRUE(summary.peak_bytes);
  EXPECT_DOUBLE_EQ(*summary.peak_bytes, 480220.0);
  EXPECT_EQ(summary.allocation_calls, 210.0);
  ASSERT_EQ(summary.peak_sites.size(), 1u);
  EXPECT_EQ(summary.peak_sites[0].function, "allocate_blocks(int)");
  EXPECT_EQ(summary.peak_sites[0].location, "/tmp/t.cpp:3");
  EXPECT_DOUBLE_EQ(summary.peak_sites[0].bytes, 400000.0);
}

// What heaptrack_print prints for a Release build without debug information (from
// example_containers' build_map): the allocating code (std::map's emplace, operator new) is
// inlined into the benchmark's lambda, itself inlined into benchkit's call of the routine, so the
// first frame with a symbol is that call. The site is the routine, not benchkit's harness.
TEST(HeaptrackPrint, AllocationsInlinedIntoTheRoutineAreTheRoutinesSite) {
  const std::string text =
      "PEAK MEMORY CONSUMERS\n"
      "840.14K peak memory consumed over 440106 calls from\n"
      "benchkit::Bencher::run_routine<>(build_map<>(benchkit::Bencher&)::{lambda(std::vector<>)#2}"
      "&)::{lambda(void*, unsigned long, benchkit::detail::Timer&)#1}::_FUN(void*, unsigned long, "
      "benchkit::detail::Timer&)\n"
      "  in /build/examples/example_containers\n"
      "800.00K consumed over 440000 calls from:\n"
      "    benchkit::measure::Engine::run_routine(benchkit::detail::Routine, "
      "benchkit::detail::BencherState&)\n"
      "      in /build/examples/example_containers\n"
      "\n"
      "MOST TEMPORARY ALLOCATIONS\n";
  const HeaptrackSummary summary = parse_heaptrack_print(text);
  ASSERT_EQ(summary.peak_sites.size(), 1u);
  EXPECT_EQ(summary.peak_sites[0].function, kRoutineSite);
  EXPECT_EQ(summary.peak_sites[0].location, "");
}

// With --merge-backtraces=0 (what benchkit profile asks for) each block is one whole stack,
// indented by two; blocks of one site add up, and "and 0B from N other places" is no frame.
// With -g the inlined functions are frames of their own: the site is the benchmark's inlined
// function, not the library's frames before it nor the harness's (bencher.hpp) after it.
TEST(HeaptrackPrint, UnmergedStacksAddUpPerSite) {
  const std::string text =
      "PEAK MEMORY CONSUMERS\n"
      "72.70K peak memory consumed over 1 calls from\n"
      "  0x7fcfd50a57b9\n"
      "    in /lib/x86_64-linux-gnu/libstdc++.so.6\n"
      "  call_init\n"
      "    at ./elf/dl-init.c:74\n"
      "  and 0B from 21 other places\n"
      "\n"
      "49.15K peak memory consumed over 23552 calls from\n"
      "  std::__new_allocator<>::allocate(unsigned long, void const*)\n"
      "    at /usr/include/c++/12/bits/new_allocator.h:137\n"
      "  std::__detail::_MakeUniq<>::__single_object std::make_unique<>(int&&, char&&)\n"
      "    at /usr/include/c++/12/bits/unique_ptr.h:1065\n"
      "  allocate_inlined()\n"
      "    at ../tests/cli/profile_bench.cpp:59\n"
      "  operator()\n"
      "    at ../tests/cli/profile_bench.cpp:63\n"
      "  run_iterations<>\n"
      "    at ../include/benchkit/bencher.hpp:79\n"
      "\n"
      "30.00K peak memory consumed over 2 calls from\n"
      "  allocate_inlined()\n"
      "    at ../tests/cli/profile_bench.cpp:59\n"
      "  main\n"
      "\n";
  const HeaptrackSummary summary = parse_heaptrack_print(text);
  ASSERT_EQ(summary.peak_sites.size(), 2u);
  EXPECT_EQ(summary.peak_sites[0].function, "allocate_inlined()");
  EXPECT_EQ(summary.peak_sites[0].location, "../tests/cli/profile_bench.cpp:59");
  EXPECT_DOUBLE_EQ(summary.peak_sites[0].bytes, 79150.0);
  EXPECT_EQ(summary.peak_sites[1].function, "call_init");
}

// A function template's demangled name starts with its return type: one returning a std::
// type is still the user's function, and one of the library returning void is still the
// library's.
TEST(HeaptrackPrint, AReturnTypeDoesNotMakeAFunctionTheLibrarys) {
  const std::string text =
      "PEAK MEMORY CONSUMERS\n"
      "64.00K peak memory consumed over 10 calls from\n"
      "void std::vector<>::_M_realloc_insert<>(int&&)\n"
      "  at /usr/include/c++/12/bits/vector.tcc:445\n"
      "std::vector<> make_keys<>(unsigned long)\n"
      "  at /work/bench.cpp:12\n"
      "10 calls with 64.00K peak consumption from:\n"
      "    main\n"
      "\n";
  const HeaptrackSummary summary = parse_heaptrack_print(text);
  ASSERT_EQ(summary.peak_sites.size(), 1u);
  EXPECT_EQ(summary.peak_sites[0].function, "std::vector<> make_keys<>(unsigned long)");
  EXPECT_EQ(summary.peak_sites[0].location, "/work/bench.cpp:12");
}

TEST(ScaledNumber, Suffixes) {
  EXPECT_EQ(parse_scaled_number("12.5K"), 12500.0);
  EXPECT_EQ(parse_scaled_number("3M"), 3e6);
  EXPECT_EQ(parse_scaled_number("17"), 17.0);
  EXPECT_FALSE(parse_scaled_number("lots"));
}

}  // namespace
}  // namespace benchkit::formats
