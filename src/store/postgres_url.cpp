#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "store/postgres_store.hpp"

namespace benchkit::store {

bool session_ended(std::string_view sqlstate) {
  return sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" ||
         sqlstate == "57P03";
}

bool is_postgresql_url(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::string redact_url(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  const std::size_t authority = scheme + 3;
  const std::size_t at = url.find('@', authority);
  const std::size_t slash = url.find('/', authority);
  if (at == std::string_view::npos || (slash != std::string_view::npos && slash < at)) {
    return std::string(url);
  }
  const std::size_t colon = url.find(':', authority);
  if (colon == std::string_view::npos || colon > at) return std::string(url);
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
}

std::string with_connect_timeout(std::string_view url) {
  const std::size_t query = url.find('?');
  if (query != std::string_view::npos) {
    const std::string_view parameters = url.substr(query + 1);
    for (std::size_t start = 0; start <= parameters.size();) {
      const std::size_t end = std::min(parameters.find('&', start), parameters.size());
      if (parameters.substr(start, end - start).starts_with("connect_timeout=")) {
        return std::string(url);
      }
      start = end + 1;
    }
  }
  return fmt::format("{}{}connect_timeout={}", url,
                     query == std::string_view::npos          ? "?"
                     : url.back() == '?' || url.back() == '&' ? ""
                                                              : "&",
                     kConnectTimeoutSeconds);
}

}  // namespace benchkit::store
