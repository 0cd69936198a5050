// A small program the process tests run for real: it sleeps, exits with a code, kills itself,
// hangs, touches memory, burns CPU, echoes its input or environment, as told on its command
// line. One mode per run: process_helper MODE [ARGUMENT].
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: process_helper MODE [ARGUMENT]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const char* argument = argc > 2 ? argv[2] : "0";
  if (mode == "sleep") {  // milliseconds
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(argument)));
    return 0;
  }
  if (mode == "exit") {  // exit code, after a few lines on stderr
    for (int line = 1; line <= 15; ++line) std::fprintf(stderr, "diagnostic line %d\n", line);
    return std::atoi(argument);
  }
  if (mode == "signal") {
    std::raise(std::atoi(argument));
    return 0;
  }
  if (mode == "hang") {  // "term" ignores SIGTERM, so only SIGKILL ends it
    if (std::string(argument) == "term") std::signal(SIGTERM, SIG_IGN);
    for (;;) pause();
  }
  if (mode == "hang-tree") {  // a child that hangs too, in the same process group
    if (fork() == 0) {
      for (;;) pause();
    }
    for (;;) pause();
  }
  if (mode == "touch") {  // MiB written through mmap'd memory, then a short pause
    const std::size_t bytes = std::size_t(std::atoi(argument)) << 20;
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return 3;
    std::memset(memory, 1, bytes);
    return static_cast<unsigned char*>(memory)[bytes / 2] == 1 ? 0 : 4;
  }
  if (mode == "burn") {  // milliseconds of CPU in user mode
    // Counted on the process's CPU clock, not the wall clock: on a loaded machine a wall-clock
    // burn of 200 ms got 43 ms of CPU, and the test reading its CPU time failed.
    auto cpu_ms = [] {
      timespec now{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
      return now.tv_sec * 1000.0 + now.tv_nsec / 1e6;
    };
    const double end = cpu_ms() + std::atoi(argument);
    volatile unsigned long x = 0;
    while (cpu_ms() < end) {
      for (int i = 0; i < 1000; ++i) x = x + static_cast<unsigned long>(i);
    }
    return 0;
  }
  if (mode == "cat") {  // standard input to standard output
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) std::fwrite(buffer, 1, n, stdout);
    return 0;
  }
  if (mode == "env") {  // the value of a variable on stdout; exit 1 when unset
    const char* value = std::getenv(argument);
    if (!value) return 1;
    std::printf("%s", value);
    return 0;
  }
  if (mode == "cpus") {  // the allowed CPUs on stdout, e.g. "0,"
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) std::printf("%d,", cpu);
    }
    return 0;
  }
  if (mode == "append") {  // appends one line to a file (for hooks and counting runs)
    FILE* file = std::fopen(argument, "a");
    if (!file) return 5;
    std::fprintf(file, "run\n");
    std::fclose(file);
    return 0;
  }
  std::fprintf(stderr, "process_helper: unknown mode %s\n", mode.c_str());
  return 2;
}
