#include "store/atomic_file.hpp"

#include <utility>

namespace benchkit::store {
namespace {

// Thrown out of the content writer to make write_file_atomically abandon the temporary.
struct Abandoned {
  model::Error error;
};

}  // namespace

model::Result<Written> write_file_unless_failed(const std::string& path,
                                                const FallibleWriter& write, DiskSync& sync) {
  try {
    return write_file_atomically(
        path,
        [&](std::ostream& out) {
          if (auto failed = write(out)) throw Abandoned{std::move(*failed)};
        },
        sync);
  } catch (Abandoned& abandoned) {
    return std::move(abandoned.error);
  }
}

}  // namespace benchkit::store
