#include <signal.h>

#include <csignal>

#include "process/interrupt.hpp"

namespace benchkit::process {
namespace {

volatile std::sig_atomic_t requested = 0;

void on_signal(int number) {
  if (requested) {
    // Second request: leave now, the default way.
    ::signal(number, SIG_DFL);
    ::raise(number);
    return;
  }
  requested = 1;
}

}  // namespace

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: poll and read return EINTR and see the request
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() {
  return requested != 0;
}

void restore_default_interrupt_action() {
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

}  // namespace benchkit::process
