// What the machine runs in: a virtual machine, a container.
#include "system/rules.hpp"

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

Check check_virtual_machine(const VirtualMachine& machine) {
  const std::string title = "Virtual machine";
  if (!machine.known) {
    return make_check("virtual_machine", title, Status::unknown,
                      "neither /proc/cpuinfo nor DMI readable");
  }
  if (!machine.detected) return make_check("virtual_machine", title, Status::ok, "none");
  // The hypervisor shares the physical cores with other guests and can deschedule this one
  // (steal time), and often hides the frequency controls and the hardware counters.
  return make_check(
      "virtual_machine", title, Status::warning,
      machine.name + " (" + join(machine.evidence, "; ") + ")",
      "The host shares the physical CPU with other guests and may pause this one (see the "
      "'st' column of vmstat 1), so timings vary more than on bare metal. For decisions, "
      "measure on bare metal or on an instance with dedicated cores, and compare only runs "
      "from the same instance type.");
}

Check check_container(const Container& container) {
  const std::string title = "Container";
  if (!container.known) {
    return make_check("container", title, Status::unknown, "/proc/self/cgroup not readable");
  }
  if (container.name.empty()) return make_check("container", title, Status::ok, "none");
  // A container runs on the host's kernel at full speed; what it adds is a CPU quota (its own
  // check) and neighbours (the load check sees them: /proc/loadavg is not namespaced).
  return make_check("container", title, Status::ok,
                    container.name + " (" + container.evidence + ")");
}

}  // namespace benchkit::system::detail
