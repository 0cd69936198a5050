// A keeper that saves and records nothing but what it was given, and fails on cue: the run
// pipeline's saves tested without a disk or a history (session/pipeline.hpp).
#pragma once

#include <string>
#include <vector>

#include "session/pipeline.hpp"

namespace benchkit::session::testing {

class FakeKeeper final : public Keeper {
 public:
  model::Result<std::string> save_baseline(const std::string& name, const RunResult& run) override {
    if (fail_save) return model::Error{"cannot write baseline " + name + ": disk full"};
    saved.push_back(name);
    saved_benchmarks = run.benchmarks.size();
    return ".benchkit/baselines/" + name + ".json";
  }
  model::Result<std::string> keep_executable(const std::string& name,
                                             const std::string& executable) override {
    if (fail_keep) return model::Error{"cannot copy " + executable};
    kept.push_back(executable);
    return ".benchkit/baselines/" + name + ".bin";
  }
  model::Result<Recorded> record(const std::string& store, const RunResult& /*run*/,
                                 const std::string& group) override {
    if (fail_record) {
      return model::Error{"cannot open history " + store, model::ErrorKind::input};
    }
    recorded.push_back(store);
    groups.push_back(group);
    return Recorded{"0123456789abcdef", true};
  }
  bool fail_save = false;
  bool fail_keep = false;
  bool fail_record = false;
  std::vector<std::string> saved;
  std::vector<std::string> kept;
  std::vector<std::string> recorded;
  std::vector<std::string> groups;  // the run group of each record, in order
  std::size_t saved_benchmarks = 0;
};

}  // namespace benchkit::session::testing
