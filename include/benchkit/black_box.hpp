// Keeping the optimiser from deleting or hoisting the work being measured.
#pragma once

#include <type_traits>
#include <utility>

namespace benchkit {

// Forces `value` to be computed and treated as read by something the compiler cannot see.
// Small trivially copyable values stay in a register; anything else is forced to memory.
template <class T>
inline void do_not_optimize(const T& value) {
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void*)) {
    asm volatile("" : : "r,m"(value) : "memory");
  } else {
    asm volatile("" : : "m"(value) : "memory");
  }
}

// As above, and the compiler must also assume `value` was modified, so a computation whose
// input is `value` cannot be hoisted out of a loop.
template <class T>
inline void do_not_optimize(T& value) {
  if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void*)) {
    asm volatile("" : "+r"(value) : : "memory");
  } else {
    asm volatile("" : "+m"(value) : : "memory");
  }
}

// Every write to memory before this point must be considered visible to someone.
inline void clobber_memory() {
  asm volatile("" : : : "memory");
}

// Returns `value` unchanged, but the compiler can assume nothing about it: use it on inputs
// (so constant folding cannot precompute the work) and on outputs (so the work is kept).
template <class T>
[[nodiscard]] inline T black_box(T value) {
  do_not_optimize(value);
  return value;
}

}  // namespace benchkit
