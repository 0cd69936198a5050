#include "session/isolated.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <charconv>
#include <deque>

namespace benchkit::session {

std::string stderr_tail(const std::string& text) {
  std::size_t start = text.size() > kStderrTailBytes ? text.size() - kStderrTailBytes : 0;
  std::size_t end = text.size();
  while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  std::size_t lines = 0;
  for (std::size_t at = end; at > start; --at) {
    if (text[at - 1] == '\n' && ++lines == kStderrTailLines) {
      start = at;
      break;
    }
  }
  std::string tail = text.substr(start, end - start);
  // A cut in the middle of a line starts at the next whole line.
  if (start > 0 && text[start - 1] != '\n') {
    const auto newline = tail.find('\n');
    if (newline != std::string::npos) tail.erase(0, newline + 1);
  }
  return tail;
}

namespace {

std::string seconds(std::chrono::nanoseconds duration) {
  return fmt::format("{:g} s", static_cast<double>(duration.count()) / 1e9);
}

Failure failure_of(const WorkerEnd& end) {
  Failure failure;
  failure.stderr_tail = end.stderr_tail;
  if (end.interrupted) {
    failure.cause = Failure::Cause::interrupted;
  } else if (end.timed_out) {
    failure.cause = Failure::Cause::timed_out;
    failure.signal = SIGKILL;
  } else if (end.exit.signal != 0) {
    failure.cause = Failure::Cause::crashed;
    failure.signal = end.exit.signal;
  } else {
    failure.cause = Failure::Cause::exited;
    failure.exit_code = end.exit.exit_code;
  }
  return failure;
}

// A worker's fact "peak_rss_bytes=N".
std::optional<std::int64_t> peak_rss_fact(const std::string& fact) {
  constexpr std::string_view key = "peak_rss_bytes=";
  if (!fact.starts_with(key)) return std::nullopt;
  std::int64_t value = 0;
  const char* first = fact.data() + key.size();
  const char* last = fact.data() + fact.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last) return std::nullopt;
  return value;
}

}  // namespace

BenchmarkResult failed_benchmark(const std::string& name, Failure failure, std::string message) {
  BenchmarkResult result;
  result.name = name;
  result.failures.push_back(std::move(message));
  result.failure = std::move(failure);
  return result;
}

std::string describe_end(const WorkerEnd& end, std::optional<std::chrono::nanoseconds> timeout) {
  if (end.interrupted) return "interrupted (Ctrl-C) while it ran";
  if (end.timed_out) {
    return fmt::format(
        "did not finish within {}: it hangs, or its set-up or one of its iterations takes longer "
        "than that (raise --timeout if it is only slow); its process was killed",
        timeout ? seconds(*timeout) : std::string("the time limit"));
  }
  if (end.exit.signal != 0) return "crashed: its process was " + end.exit.describe();
  return fmt::format(
      "ended its process before it finished ({}): a benchmark must return, not call exit() or "
      "quick_exit()",
      end.exit.describe());
}

Supervised supervise(Launcher& launcher, const std::vector<std::string>& names,
                     const std::vector<std::size_t>& order, const Isolation& isolation,
                     const ResultDecoder& decode, IsolationObserver& observer) {
  Supervised outcome;
  std::deque<std::size_t> waiting(order.begin(), order.end());
  auto fail = [&](std::size_t index, Failure failure, const std::string& message) {
    BenchmarkResult failed = failed_benchmark(names[index], std::move(failure), message);
    observer.failed(index, failed);
    if (isolation.keep_results) outcome.results.push_back(std::move(failed));
    ++outcome.failed;
  };
  while (!waiting.empty() && !outcome.interrupted) {
    const std::size_t take =
        isolation.per_worker == 0 ? waiting.size() : std::min(isolation.per_worker, waiting.size());
    std::deque<std::size_t> batch(waiting.begin(), waiting.begin() + static_cast<long>(take));
    waiting.erase(waiting.begin(), waiting.begin() + static_cast<long>(take));
    auto worker = launcher.launch(std::vector<std::size_t>(batch.begin(), batch.end()));
    if (!worker) {
      // Nothing can start a worker (fork or exec failed): the rest cannot run either.
      batch.insert(batch.end(), waiting.begin(), waiting.end());
      waiting.clear();
      for (const std::size_t index : batch) {
        fail(index, Failure{Failure::Cause::exited, {}, {}, {}},
             "its worker process could not be started: " + worker.error().message);
      }
      break;
    }
    // Whether the worker started batch.front() and has not finished it (a flag, not the index:
    // GCC 12 took an optional index for uninitialised, -Wmaybe-uninitialized, in the unity build).
    bool running = false;
    std::optional<Deadline> deadline;
    for (bool ended = false; !ended;) {
      WorkerEvent event = (*worker)->next(deadline);
      switch (event.kind) {
        case WorkerEvent::Kind::started: {
          // Its benchmarks come in the order given; a name out of order is a broken worker, and
          // the benchmark it should have started is blamed when it ends.
          if (batch.empty() || names[batch.front()] != event.text) break;
          running = true;
          if (isolation.timeout) deadline = isolation.now() + *isolation.timeout;
          observer.started(batch.front(), names[batch.front()]);
          break;
        }
        case WorkerEvent::Kind::finished: {
          if (!running) break;
          const std::size_t index = batch.front();
          running = false;
          deadline.reset();
          batch.pop_front();
          auto results = decode(event.text);
          std::string().swap(event.text);  // the result's text, no longer needed
          if (!results) {
            fail(index, Failure{Failure::Cause::exited, {}, {}, {}},
                 "its worker sent a result that cannot be read: " + results.error().message);
            break;
          }
          for (BenchmarkResult& result : *results) {
            observer.finished(index, result);
            if (isolation.keep_results) outcome.results.push_back(std::move(result));
          }
          break;
        }
        case WorkerEvent::Kind::fact: {
          if (const auto peak = peak_rss_fact(event.text)) {
            outcome.worker_peak_rss_bytes =
                std::max(outcome.worker_peak_rss_bytes.value_or(0), *peak);
          }
          break;
        }
        case WorkerEvent::Kind::ended: {
          ended = true;
          outcome.interrupted = event.end.interrupted;
          if (batch.empty()) break;
          {
            // The benchmark that was running; or, for a worker that ended before it started the
            // next, that one (so that a worker that cannot even start does not loop for ever).
            const std::size_t index = batch.front();
            batch.pop_front();
            const std::string message =
                running || event.end.timed_out || event.end.interrupted
                    ? describe_end(event.end, isolation.timeout)
                    : fmt::format("its worker process ended before it started it ({})",
                                  event.end.exit.describe());
            fail(index, failure_of(event.end), message);
          }
          // The rest go first into the next worker.
          waiting.insert(waiting.begin(), batch.begin(), batch.end());
          break;
        }
      }
    }
  }
  return outcome;
}

}  // namespace benchkit::session
