#include "report/document.hpp"

namespace benchkit::report {

std::string_view to_string(Part part) {
  switch (part) {
    case Part::results:
      return "results";
    case Part::comparison:
      return "comparison";
    case Part::noise:
      return "noise";
    case Part::machine_checks:
      return "machine checks";
    case Part::warnings:
      return "machine warnings";
  }
  return "results";
}

bool Document::holds(Part part) const {
  switch (part) {
    case Part::results:
      return results != nullptr;
    case Part::comparison:
      return comparison != nullptr;
    case Part::noise:
      return noise != nullptr;
    case Part::machine_checks:
      return machine_checks != nullptr;
    case Part::warnings:
      return warnings != nullptr;
  }
  return false;
}

std::vector<Part> Document::parts() const {
  std::vector<Part> held;
  for (Part part :
       {Part::results, Part::comparison, Part::noise, Part::machine_checks, Part::warnings}) {
    if (holds(part)) held.push_back(part);
  }
  return held;
}

}  // namespace benchkit::report
