#pragma once

// BENCHKIT_TEST_ASAN: 1 when this test file is compiled with AddressSanitizer, by GCC (which
// defines __SANITIZE_ADDRESS__) or by clang (which answers __has_feature(address_sanitizer)
// instead; `make test-asan` compiles with clang).
#if defined(__SANITIZE_ADDRESS__)
#define BENCHKIT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCHKIT_TEST_ASAN 1
#endif
#endif
#ifndef BENCHKIT_TEST_ASAN
#define BENCHKIT_TEST_ASAN 0
#endif
