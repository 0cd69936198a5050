// `benchkit profile`'s options as plain data (cli/profile_command.cpp binds its flags to these
// fields), and the request to session::run_profile they become.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "model/profile.hpp"
#include "session/profile.hpp"

namespace benchkit::session {

struct ProfileOptions {
  std::string binary;
  std::string benchmark;
  model::ProfileTool tool = model::ProfileTool::callgrind;
  std::string profile_time = "5s";
  model::Format format = model::Format::console;
  std::string html;
  std::string out_dir;
  std::size_t top = 15;
  std::vector<std::string> params;  // NAME=V1,V2, passed on as the bench binary's --param
};

// The request; the error says --profile-time is not a positive duration.
model::Result<ProfileRequest> profile_request(const ProfileOptions& options);

}  // namespace benchkit::session
