// Ctrl-C while whole processes run: the current run is killed and the results so far are kept.
#pragma once

namespace benchkit::process {

// Installs a SIGINT/SIGTERM handler that only records the request (a second Ctrl-C ends the
// process at once, as usual). run_one kills the running command when it sees the request.
void install_interrupt_handler();
bool interrupt_requested();
// Puts back the default action of SIGINT and SIGTERM (the request, if any, stays recorded).
void restore_default_interrupt_action();

}  // namespace benchkit::process
