// What waking a third process once per run costs: the question behind the spawner's records sent
// in batches (src/process/spawner_main.cpp). A loop of vfork, exec /usr/bin/true and wait4, as
// the spawner runs a command, in three ways, interleaved over several sets:
//
//   alone        nothing else
//   every run    a 101-byte write per run to a pipe that another process reads, blocked in read
//                (a record per run, as the spawner sent before)
//   every 16th   the same write once per 16 runs (a batch)
//
// Usage: wakeup_cost [RUNS per set, default 300] [SETS, default 12]
// Prints the median milliseconds per run of each way, and the ratios to `alone`.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern char** environ;

namespace {

// Milliseconds per run of `runs` runs of /usr/bin/true, writing a record every `every` runs to a
// reader process (no reader when every == 0).
double ms_per_run(int runs, int every) {
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  pid_t reader = 0;
  if (every > 0) {
    reader = fork();
    if (reader == 0) {
      close(fds[1]);
      char buffer[4096];
      while (read(fds[0], buffer, sizeof buffer) > 0) {
      }
      _exit(0);
    }
  }
  close(fds[0]);
  std::array<char, 101> record{};
  char program[] = "true";
  char* argv[] = {program, nullptr};
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    const pid_t child = vfork();
    if (child == 0) {
      execve("/usr/bin/true", argv, environ);
      _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    if (every > 0 && i % every == every - 1) {
      if (write(fds[1], record.data(), record.size()) < 0) std::exit(1);
    }
  }
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  close(fds[1]);
  if (reader > 0) waitpid(reader, nullptr, 0);
  return elapsed.count() / runs;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 300;
  const int sets = argc > 2 ? std::atoi(argv[2]) : 12;
  if (runs <= 0 || sets <= 0) {
    std::fprintf(stderr, "usage: wakeup_cost [RUNS > 0] [SETS > 0]\n");
    return 2;
  }
  constexpr std::array<int, 3> kEvery = {0, 1, 16};
  constexpr std::array<const char*, 3> kNames = {"alone", "every run", "every 16th"};
  std::array<std::vector<double>, 3> times;
  for (int set = 0; set < sets; ++set) {
    for (std::size_t way = 0; way < kEvery.size(); ++way) {
      times[way].push_back(ms_per_run(runs, kEvery[way]));
    }
  }
  const double alone = median(times[0]);
  for (std::size_t way = 0; way < kEvery.size(); ++way) {
    const double m = median(times[way]);
    std::printf("%-11s median %.3f ms per run (%.3f of alone)\n", kNames[way], m, m / alone);
  }
  return 0;
}
