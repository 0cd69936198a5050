# CTest tests one per GoogleTest suite instead of one per test (gtest_discover_tests).
#
# A sanitized test process costs about 0.3 CPU s to start (docs/build-time.md, "Where the
# sanitizer run's time goes"): with a process per test, the sanitizer run spent some 400 of its
# CPU seconds starting 1,432 processes. One process per suite runs the same tests, each in the
# suite's process, and keeps a failure's name: CTest names the suite, GoogleTest's output names
# the test.
#
#   benchkit_discover_test_suites(TARGET [PREFIX text] [PROPERTIES name value ...])
#
# After TARGET is linked, `TARGET --gtest_list_tests` is read (cmake/benchkitListSuites.cmake)
# and its suites written to a list beside it; CTest then registers one test per suite, named
# PREFIX + "Suite.*" (two executables may have suites of one name) and run as
# `TARGET --gtest_filter=Suite.*`, with PROPERTIES (labels, fixtures).
set(BENCHKIT_LIST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/benchkitListSuites.cmake)

function(benchkit_discover_test_suites target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PREFIX" "PROPERTIES")
  set(suites "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.txt")
  set(include "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D "EXECUTABLE=$<TARGET_FILE:${target}>" -D "OUTPUT=${suites}"
            -P ${BENCHKIT_LIST_SUITES_SCRIPT}
    BYPRODUCTS ${suites}
    COMMENT "Listing the test suites of ${target}"
    VERBATIM)
  # Written at configure time and read by CTest: the list exists only once TARGET is built.
  set(properties)
  foreach(property IN LISTS arg_PROPERTIES)
    string(APPEND properties " [==[${property}]==]")
  endforeach()
  file(WRITE ${include}.in
"if(EXISTS [==[${suites}]==])
  file(STRINGS [==[${suites}]==] benchkit_suites)
  foreach(benchkit_suite IN LISTS benchkit_suites)
    add_test(\"${arg_PREFIX}\${benchkit_suite}.*\" [==[$<TARGET_FILE:${target}>]==] \"--gtest_filter=\${benchkit_suite}.*\")
    set_tests_properties(\"${arg_PREFIX}\${benchkit_suite}.*\" PROPERTIES
      WORKING_DIRECTORY [==[${CMAKE_CURRENT_BINARY_DIR}]==]${properties})
  endforeach()
else()
  add_test([==[${target}_NOT_BUILT]==] [==[${target}_NOT_BUILT]==])
endif()
")
  # The include names the executable through a generator expression: evaluate it per config.
  file(GENERATE OUTPUT ${include} INPUT ${include}.in)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include})
endfunction()
