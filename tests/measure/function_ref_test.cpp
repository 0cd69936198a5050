// benchkit::detail::FunctionRef (include/benchkit/function_ref.hpp): the non-owning callable that
// Bench::run takes instead of std::function.
#include "benchkit/function_ref.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <type_traits>

namespace benchkit::detail {
namespace {

int twice(int value) {
  return 2 * value;
}

void append_x(std::string& text) {
  text += 'x';
}

int call_with_three(FunctionRef<int(int)> function) {
  return function(3);
}

TEST(FunctionRef, CallsALambdaThatKeepsItsStateInTheCaller) {
  int calls = 0;
  auto counting = [&calls](int value) {
    ++calls;
    return value + 1;
  };
  EXPECT_EQ(call_with_three(counting), 4);
  EXPECT_EQ(call_with_three(counting), 4);
  EXPECT_EQ(calls, 2);
}

TEST(FunctionRef, RefersToTheObjectWithoutCopyingIt) {
  struct Counter {
    int calls = 0;
    int operator()(int value) {
      ++calls;
      return value;
    }
  };
  Counter counter;
  FunctionRef<int(int)> reference = counter;
  reference(1);
  reference(2);
  EXPECT_EQ(counter.calls, 2) << "the calls reached the caller's object, not a copy";
  const FunctionRef<int(int)> copy = reference;  // copies the reference, not the object
  copy(3);
  EXPECT_EQ(counter.calls, 3);
}

TEST(FunctionRef, CallsAFunctionAndAFunctionPointer) {
  EXPECT_EQ(call_with_three(twice), 6);
  EXPECT_EQ(call_with_three(&twice), 6);
  int (*pointer)(int) = &twice;
  EXPECT_EQ(call_with_three(pointer), 6);
}

TEST(FunctionRef, CallsAConstObjectAndAStdFunction) {
  const auto constant = [](int value) { return value * 10; };
  EXPECT_EQ(call_with_three(constant), 30);
  const std::function<int(int)> wrapped = [](int value) { return value - 1; };
  EXPECT_EQ(call_with_three(wrapped), 2);
  // A temporary lives until the end of the full expression, so until the call returns.
  EXPECT_EQ(call_with_three([](int value) { return value * value; }), 9);
}

TEST(FunctionRef, PassesReferencesThroughAndDiscardsAResultForVoid) {
  std::string text;
  FunctionRef<void(std::string&)> append = append_x;
  append(text);
  append(text);
  EXPECT_EQ(text, "xx");
  int calls = 0;
  // A body returning a value is accepted where void is expected, as std::function accepts it.
  // (The lambda is named: a FunctionRef variable initialised from a temporary would dangle.)
  const auto measuring = [&calls](std::string& value) {
    ++calls;
    return value.size();
  };
  FunctionRef<void(std::string&)> returning = measuring;
  returning(text);
  EXPECT_EQ(calls, 1);
}

TEST(FunctionRef, AcceptsOnlyCallablesOfTheSignature) {
  EXPECT_TRUE((std::is_convertible_v<int (*)(int), FunctionRef<int(int)>>));
  EXPECT_TRUE((std::is_convertible_v<long (*)(long), FunctionRef<int(int)>>));
  EXPECT_FALSE((std::is_convertible_v<int (*)(std::string), FunctionRef<int(int)>>));
  EXPECT_FALSE((std::is_convertible_v<std::string (*)(int), FunctionRef<int(int)>>));
  EXPECT_FALSE((std::is_convertible_v<int, FunctionRef<int(int)>>));
  EXPECT_TRUE((std::is_trivially_copyable_v<FunctionRef<int(int)>>));
}

}  // namespace
}  // namespace benchkit::detail
