# benchkit_add_benchmark(NAME SOURCES source... [LIBRARIES library...] [TEST_ARGS arg...])
#
# Creates the bench binary NAME from the sources, links benchkit::main (the standard main and
# flags) and the given libraries, and registers a CTest test NAME that runs it with --test
# (each benchmark once, each scenario once: a smoke run that fails when a benchmark throws,
# crashes or fails its verify). TEST_ARGS are added to the test's command line (--skip-tag ci,
# --param size=64, ...). The test is labelled "benchmark" (ctest -L benchmark runs only these).
# Shipped with the package: find_package(benchkit), add_subdirectory and FetchContent all
# provide it.
function(benchkit_add_benchmark name)
  cmake_parse_arguments(PARSE_ARGV 1 BENCHKIT_ADD "" "" "SOURCES;LIBRARIES;TEST_ARGS")
  if(BENCHKIT_ADD_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "benchkit_add_benchmark(${name}): unexpected arguments "
                        "\"${BENCHKIT_ADD_UNPARSED_ARGUMENTS}\"; the form is "
                        "benchkit_add_benchmark(NAME SOURCES file... [LIBRARIES lib...] "
                        "[TEST_ARGS arg...])")
  endif()
  if(NOT BENCHKIT_ADD_SOURCES)
    message(FATAL_ERROR "benchkit_add_benchmark(${name}): give the benchmark's sources after "
                        "SOURCES")
  endif()
  add_executable(${name} ${BENCHKIT_ADD_SOURCES})
  target_link_libraries(${name} PRIVATE benchkit::main ${BENCHKIT_ADD_LIBRARIES})
  add_test(NAME ${name} COMMAND ${name} --test --quiet ${BENCHKIT_ADD_TEST_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS benchmark)
endfunction()
