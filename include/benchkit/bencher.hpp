// The handle a benchmark function receives: says what to time and how to count it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "benchkit/black_box.hpp"
#include "benchkit/counter.hpp"
#include "benchkit/duration.hpp"

namespace benchkit {

namespace detail {

// Implemented by the measuring engine. A routine calls start() and stop() around exactly
// the code to be timed; everything outside that pair (making inputs, dropping outputs) is
// not timed.
class Timer {
 public:
  virtual void start() = 0;
  virtual void stop() = 0;
  // For iter_custom: the user measured `ns` for the whole batch themselves.
  virtual void record_elapsed_ns(double ns) = 0;
  // Largest number of inputs of about `bytes_each` bytes to hold at once (at least 1).
  virtual std::size_t input_batch_limit(std::size_t bytes_each) = 0;
  // Heap bytes currently in use by the process, or -1 when unknown (to size input batches).
  virtual std::int64_t heap_bytes_in_use() = 0;

 protected:
  ~Timer() = default;
};

// A type-erased loop: run `iterations` iterations of the user's code, timing only the
// measured part through `timer`.
struct Routine {
  void* object = nullptr;
  void (*run)(void* object, std::uint64_t iterations, Timer& timer) = nullptr;
};

struct BencherState;

// The measurement seen from the benchmark's own loop: next() is the iteration count of the next
// batch (0 once the engine has all its samples), timer() times it. The engine decides warm-up,
// batch sizes and stopping between two calls to next(). With this the loop of iter() runs
// inline in the benchmark function: what the user's code captures by reference stays in
// registers. A loop behind a type-erased pointer sees those variables escaped, and the memory
// clobber of every iteration then stores and reloads them (`x += x`: 7 instructions per
// iteration instead of 3, 1.2 cycles instead of 1).
class Batches {
 public:
  // Throws when the benchmark already measured (one routine per benchmark).
  explicit Batches(BencherState& state);
  ~Batches();
  Batches(const Batches&) = delete;
  Batches& operator=(const Batches&) = delete;

  // Called once before the first batch and after each; rethrows what the engine threw.
  std::uint64_t next();
  Timer& timer() { return *timer_; }

 private:
  void* driver_ = nullptr;  // the engine's coroutine (src/measure/engine.cpp)
  Timer* timer_ = nullptr;
};

template <class F>
inline void run_iterations(F& f, std::uint64_t iterations) {
  for (std::uint64_t i = 0; i < iterations; ++i) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
      f();
      clobber_memory();
    } else {
      do_not_optimize(f());
    }
  }
}

}  // namespace detail

template <class Make>
class Inputs;

class Bencher {
 public:
  explicit Bencher(detail::BencherState& state) : state_(&state) {}
  Bencher(const Bencher&) = delete;
  Bencher& operator=(const Bencher&) = delete;

  // Times `f()` repeatedly; its return value is black-boxed and destroyed inside the timed
  // region (use with_inputs(...).bench_values(...) when dropping the output is costly).
  template <class F>
  void iter(F&& f) {
    detail::Batches batches(*state_);
    while (const std::uint64_t iterations = batches.next()) {
      detail::Timer& timer = batches.timer();
      timer.start();
      detail::run_iterations(f, iterations);
      timer.stop();
    }
  }

  // The user measures: `f(iterations)` runs `iterations` iterations and returns the time they
  // took, as a std::chrono duration or as nanoseconds in a double. For GPU work, work spread
  // over threads, or anything the wall clock around the call would mismeasure.
  template <class F>
  void iter_custom(F&& f) {
    auto loop = [&f](std::uint64_t iterations, detail::Timer& timer) {
      auto elapsed = f(iterations);
      if constexpr (std::is_arithmetic_v<decltype(elapsed)>) {
        timer.record_elapsed_ns(static_cast<double>(elapsed));
      } else {
        timer.record_elapsed_ns(detail::to_nanoseconds_double(elapsed));
      }
    };
    run_routine(loop);
  }

  // Inputs made by `make()` before timing starts; see Inputs::bench_refs and bench_values.
  template <class Make>
  Inputs<std::decay_t<Make>> with_inputs(Make&& make) {
    return Inputs<std::decay_t<Make>>(*this, std::forward<Make>(make));
  }

  // Work done per iteration, to report throughput (MiB/s, items/s) beside time.
  Bencher& throughput_bytes(std::uint64_t bytes_per_iteration);
  Bencher& throughput_items(std::uint64_t items_per_iteration);
  // A named value reported with the result (a ratio, a size, a count of anything), shown as
  // set. Set again, the last value is kept.
  Bencher& counter(std::string_view name, double value);
  // The same with a kind (counter.hpp), as Google Benchmark's Counter flags: a rate per second
  // of measured time, a total averaged over the iterations or the threads, units of 1024.
  //   b.counter("bytes", size, benchkit::counter::rate | benchkit::counter::base_1024);
  // The result keeps the value as set and its kind; reports apply the kind.
  Bencher& counter(std::string_view name, double value, counter::Kind kind);
  // A text shown beside the result (Google Benchmark's SetLabel): the dataset, a mode. Set
  // again, the last text is kept.
  Bencher& label(std::string_view text);

  // The benchmark's full name, e.g. "hash_text/size=64".
  const std::string& name() const;

  // In a threaded benchmark (Registration::threads) the same function runs in threads() threads
  // at once, each with its own Bencher; thread_index() is this one's, 0 … threads()-1, so a
  // routine can pick its share of shared data. 0 and 1 in any other benchmark.
  std::size_t thread_index() const;
  std::size_t threads() const;

 private:
  template <class Make>
  friend class Inputs;

  template <class Loop>
  void run_routine(Loop& loop) {
    detail::Routine routine;
    routine.object = &loop;
    routine.run = [](void* object, std::uint64_t iterations, detail::Timer& timer) {
      (*static_cast<Loop*>(object))(iterations, timer);
    };
    run(routine);
  }
  void run(detail::Routine routine);

  detail::BencherState* state_;
};

// Inputs built outside the timed region, in batches; outputs are kept until the batch's
// timing has stopped, then destroyed with the inputs. The number of inputs held at once is
// capped (by bytes, see Timer::input_batch_limit), so a large input shrinks the batch instead
// of exhausting memory; a batch is then timed in several pieces whose times are added.
template <class Make>
class Inputs {
 public:
  Inputs(Bencher& bencher, Make make) : bencher_(bencher), make_(std::move(make)) {}

  // f(Input&): the input is mutated in place (sorting a vector, say).
  template <class F>
  void bench_refs(F&& f) {
    bench([&f](Input& input) -> decltype(auto) { return f(input); });
  }

  // f(Input): the input is consumed (moved into f). What f returns is destroyed after timing
  // stops; a by-value parameter that f does not return is destroyed when f returns, inside the
  // timed region (C++ gives no other choice): return it, or a value that owns it, when its
  // destruction is costly.
  template <class F>
  void bench_values(F&& f) {
    bench([&f](Input& input) -> decltype(auto) { return f(std::move(input)); });
  }

 private:
  using Input = std::invoke_result_t<Make&>;

  // Raw storage for one output, constructed in place from the call's result (guaranteed copy
  // elision: no temporary is moved from and destroyed inside the timed region).
  template <class Output>
  struct Slot {
    alignas(Output) unsigned char bytes[sizeof(Output)];
    Output* get() { return std::launder(reinterpret_cast<Output*>(bytes)); }
  };

  template <class Call>
  void bench(Call call) {
    using Output = std::invoke_result_t<Call&, Input&>;
    constexpr bool has_output = !std::is_void_v<Output>;
    using Stored = std::conditional_t<has_output, Slot<std::remove_cv_t<Output>>, char>;

    auto loop = [this, &call](std::uint64_t iterations, detail::Timer& timer) {
      std::size_t limit = timer.input_batch_limit(sizeof(Input) + sizeof(Stored));
      std::uint64_t done = 0;
      while (done < iterations) {
        const std::size_t count = static_cast<std::size_t>(
            std::min<std::uint64_t>(iterations - done, static_cast<std::uint64_t>(limit)));
        const std::int64_t heap_before = timer.heap_bytes_in_use();
        std::vector<Input> inputs;
        inputs.reserve(count);
        for (std::size_t i = 0; i < count; ++i) inputs.push_back(make_());
        std::vector<Stored> outputs(has_output ? count : 0);
        std::size_t constructed = 0;
        auto destroy_outputs = [&] {
          if constexpr (has_output) {
            using Plain = std::remove_cv_t<Output>;
            for (std::size_t i = 0; i < constructed; ++i) outputs[i].get()->~Plain();
          }
          constructed = 0;
        };
        try {
          timer.start();
          for (std::size_t i = 0; i < count; ++i) {
            if constexpr (has_output) {
              ::new (static_cast<void*>(outputs[i].bytes))
                  std::remove_cv_t<Output>(call(inputs[i]));
              ++constructed;
            } else {
              call(inputs[i]);
              clobber_memory();
            }
          }
          timer.stop();
        } catch (...) {
          destroy_outputs();
          throw;
        }
        // Shrink the next batch when these inputs turned out to hold much heap memory.
        const std::int64_t heap_after = timer.heap_bytes_in_use();
        if (heap_before >= 0 && heap_after > heap_before && count > 0) {
          const auto heap_each = static_cast<std::size_t>(heap_after - heap_before) / count;
          limit = timer.input_batch_limit(sizeof(Input) + sizeof(Stored) + heap_each);
        }
        done += count;
        destroy_outputs();  // after timing stopped; the inputs follow at the end of the scope
      }
    };
    bencher_.run_routine(loop);
  }

  Bencher& bencher_;
  Make make_;
};

}  // namespace benchkit
