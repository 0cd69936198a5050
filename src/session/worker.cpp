#include "session/worker.hpp"

#include <fmt/format.h>

#include <utility>

#include "session/bench_options.hpp"
#include "session/side_by_side.hpp"

namespace benchkit::session {

int run_worker(std::span<const std::string> words, const std::string& command_line,
               WorkerHost& host) {
  const auto invocation = process::WorkerInvocation::parse(words);
  if (!invocation) return host.refused(invocation.error());
  if (auto problem = check_worker_mode(*invocation)) return host.refused(*problem);
  RunSettings settings = run_settings(*invocation);
  auto chosen = choose(*invocation, invocation->mode.value_or(Mode::time));
  if (!chosen) return host.refused(chosen.error());
  if (invocation->list) return host.list(chosen->chosen);
  using Role = process::WorkerInvocation::Role;
  if (invocation->role() == Role::turns) {
    TurnGate gate(invocation->turns_fd);
    settings.command_line = command_line;
    return host.take_turns(*invocation,
                           turns_plan(*invocation, std::move(settings), std::move(*chosen), gate));
  }
  if (invocation->role() == Role::profiled) {
    const auto& duration = invocation->profile_time_ns;
    const std::string shown = duration ? fmt::format("{}ns", *duration) : "";
    return host.profile({duration, shown, invocation->profile_markers, invocation->profile_summary},
                        invocation->quiet, settings, chosen->chosen);
  }
  serve(settings, chosen->chosen, invocation->indices.value_or(std::vector<std::size_t>{}),
        invocation->stream_fd);
  return 0;
}

}  // namespace benchkit::session
