// Counted runs (--mode instructions): how a bench binary's benchmarks are run under valgrind's
// callgrind so that their instruction counts repeat exactly (docs/instructions.md).
//
// The process that the user started stays native: it supervises, compares and reports as in a
// timed run. Each benchmark runs in a fresh worker process started as
//
//   valgrind --tool=callgrind <pinned cache geometry> --instr-atstart=no --collect-atstart=no
//            --collect-systime=yes --callgrind-out-file=DIR/callgrind.out.%p
//            --log-file=DIR/valgrind.%p.log  BENCH --mode instructions --callgrind-dumps ...
//
// with address-space randomisation off and a fixed environment, and the worker, seeing itself
// under valgrind, counts its samples through client requests (clock/callgrind.hpp). Valgrind
// follows fork() natively (the child stays under the tool and writes its own dump, named by its
// process id); --trace-children only concerns exec, which a bench worker never does, so it is
// off here and on for whole commands.
#pragma once

#include <string>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "process/worker_invocation.hpp"

namespace benchkit::session {

// The pinned cache geometry, so that counts do not depend on the host CPU: I1 and D1 32 KiB,
// 8-way, 64-byte lines; LL 8 MiB, 16-way, 64-byte lines (the values CodSpeed and iai-callgrind
// pin, a typical desktop x86 core).
inline constexpr const char* kInstructionCache = "--I1=32768,8,64";
inline constexpr const char* kDataCache = "--D1=32768,8,64";
inline constexpr const char* kLastLevelCache = "--LL=8388608,16,64";

// valgrind's path (searched in PATH), or an error saying how to install it.
model::Result<std::string> find_valgrind();

// The files of a counted run, all in one folder.
struct CountedFiles {
  std::string folder;
  std::string dump_prefix() const { return folder + "/callgrind.out.%p"; }
  std::string log_pattern() const { return folder + "/valgrind.%p.log"; }
};

// valgrind and its options up to (not including) the program it runs. `trace_children`: follow
// exec (whole commands whose children do the work).
std::vector<std::string> callgrind_command(const std::string& valgrind, const CountedFiles& files,
                                           bool trace_children);

// The fixed environment of a counted worker: PATH, HOME, TMPDIR (when set), LC_ALL=C, every
// BENCHKIT_* variable, and the variables named in `keep`, from `environment` (this process's,
// NAME=VALUE each). The stack a process starts with holds its environment, so a different
// environment moves every stack address; the same one keeps them.
std::vector<std::string> counted_environment(const std::vector<std::string>& environment,
                                             const std::vector<std::string>& keep);

// This process's environment, NAME=VALUE each.
std::vector<std::string> current_environment();

// What valgrind's logs in `folder` say when a worker died of an instruction it cannot run
// (an AVX-512 or other CPU extension its simulated CPU lacks): a message with the way out, or
// "" when no log says so.
std::string unhandled_instruction_message(const std::string& folder);

// A bench binary's benchmarks counted by the binary itself, as `BINARY --mode instructions
// --quiet --out OUT FLAGS...` does it (valgrind started by the binary, one fresh process per
// benchmark), and its result file read back. Every command that counts another build's binary
// goes through this: a bench binary's --baseline with a kept binary, benchkit ab --mode
// instructions. The binary's standard error is passed on (its failed benchmarks, valgrind's
// problems). A benchmark that failed is in the result; the error (kind failed) says that the
// binary could not run or wrote no result, naming it.
model::Result<RunResult> count_bench_binary(const std::string& binary,
                                            const std::vector<std::string>& flags,
                                            const std::string& out);
// The same with the flags as a typed run (its mode, quiet and out are set here).
model::Result<RunResult> count_bench_binary(const std::string& binary,
                                            process::WorkerInvocation run, const std::string& out);

// Adds that message to every benchmark of `run` that crashed (valgrind ends the program with
// SIGILL on such an instruction).
void explain_crashes(RunResult& run, const std::string& folder);

}  // namespace benchkit::session
