// Expected failures as values: a message that names the operation, the object and the fix.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace benchkit::model {

// What kind of failure an error is: the command line maps it to the exit status (2 for usage
// and input, 1 for a failed run, 130 for an interrupted one), nothing else needs to.
enum class ErrorKind {
  usage,        // a wrong flag or value
  input,        // a missing or damaged file, a bad name, a folder that cannot be written
  failed,       // the run itself failed: a worker could not be started, a comparison broke
  interrupted,  // Ctrl-C
};

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::input;
};

// A value or an Error (std::expected arrives with C++23; this is the part benchkit needs).
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit on purpose
  Result(Error error) : state_(std::move(error)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() {
    if (!ok()) throw std::logic_error("Result::value() on an error: " + error().message);
    return std::get<T>(state_);
  }
  const T& value() const {
    if (!ok()) throw std::logic_error("Result::value() on an error: " + error().message);
    return std::get<T>(state_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace benchkit::model
