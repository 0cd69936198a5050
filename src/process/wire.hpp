// The messages between benchkit and its spawner helper: length-prefixed binary frames on a
// pair of pipes. Both ends are built from the same source, so the layout is native.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "process/run.hpp"

namespace benchkit::process::wire {

std::string encode(const RunRequest& request);
std::string encode(const RunRecord& record);
std::optional<RunRequest> decode_request(std::string_view bytes);
std::optional<RunRecord> decode_record(std::string_view bytes);

// One frame: a 32-bit length, then the bytes. False on end of file or an error.
bool write_frame(int fd, std::string_view bytes);
bool read_frame(int fd, std::string& bytes);

}  // namespace benchkit::process::wire
