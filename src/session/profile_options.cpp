#include "session/profile_options.hpp"

#include <fmt/format.h>

#include "model/duration.hpp"
#include "session/command_options.hpp"

namespace benchkit::session {

model::Result<ProfileRequest> profile_request(const ProfileOptions& o) {
  const auto duration = model::parse_duration_ns(o.profile_time);
  if (!duration || *duration <= 0) {
    return usage_error(
        fmt::format("--profile-time \"{}\" is not a positive duration; write e.g. 5s or 500ms",
                    o.profile_time));
  }
  ProfileRequest request;
  request.binary = o.binary;
  request.benchmark = o.benchmark;
  request.tool = o.tool;
  request.duration_ns = *duration;
  request.out_dir = o.out_dir;
  request.top = o.top;
  for (const std::string& param : o.params) {
    request.bench_flags.insert(request.bench_flags.end(), {"--param", param});
  }
  return request;
}

}  // namespace benchkit::session
