// A callable handed down a call without being stored: what Bench::run and Bench::run_scenario
// take instead of std::function, whose header (<functional>, about 39,000 preprocessed lines
// with GCC 12) every benchmark would otherwise compile.
#pragma once

#include <type_traits>
#include <utility>

namespace benchkit::detail {

// A function, or a pointer to one, as opposed to an object with an operator().
template <class F>
concept FunctionOrPointer = std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<F>>>;

// F can be called as f(args...) with a result that converts to R (any result when R is void).
template <class F, class R, class... Args>
concept CallableAs = requires(std::remove_reference_t<F>& f, Args&&... args) {
  static_cast<R>(f(std::forward<Args>(args)...));
};

template <class Signature>
class FunctionRef;

// Refers to a callable (a lambda, a function object, a function) without owning or copying it:
// it must not outlive the callable, so it is only ever a parameter of a function that calls it
// before returning (Bench::run calls the body while run() lasts). Copying it copies the
// reference. Nothing stores one; a body that has to be kept is a function pointer
// (Registration::add_function).
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  // Anything CallableAs the signature but a FunctionRef itself (whose copy copies the reference).
  template <class F>
  static constexpr bool refers_to =
      !std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && CallableAs<F, R, Args...>;

  template <class F>
  requires refers_to<F> FunctionRef(F&& callable) {  // NOLINT: implicit, as std::function's
    if constexpr (FunctionOrPointer<F>) {
      target_.function = reinterpret_cast<void (*)()>(static_cast<std::decay_t<F>>(callable));
      call_ = &call_function<std::decay_t<F>>;
    } else {
      target_.object = const_cast<void*>(static_cast<const void*>(__builtin_addressof(callable)));
      call_ = &call_object<std::remove_reference_t<F>>;
    }
  }

  R operator()(Args... args) const { return call_(target_, std::forward<Args>(args)...); }

 private:
  // An object pointer cannot hold a function pointer portably; one of the two is set.
  union Target {
    void* object;
    void (*function)();
  };

  template <class Object>
  static R call_object(Target target, Args&&... args) {
    Object& object = *static_cast<Object*>(target.object);
    if constexpr (std::is_void_v<R>) {
      object(std::forward<Args>(args)...);
    } else {
      return object(std::forward<Args>(args)...);
    }
  }
  template <class Pointer>
  static R call_function(Target target, Args&&... args) {
    const auto function = reinterpret_cast<Pointer>(target.function);
    if constexpr (std::is_void_v<R>) {
      function(std::forward<Args>(args)...);
    } else {
      return function(std::forward<Args>(args)...);
    }
  }

  Target target_{};
  R (*call_)(Target target, Args&&... args) = nullptr;
};

}  // namespace benchkit::detail
