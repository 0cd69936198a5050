# The unity build of libbenchkit (docs/build-time.md, "A unity build"): the sources of one folder
# of src/ are compiled in batches of up to BENCHKIT_UNITY_BATCH_SIZE files, each batch one
# translation unit that includes them, so that the heavy headers they share (the standard
# library, fmt, nlohmann-json, CLI11) are parsed, instantiated and optimised once per batch
# instead of once per file. On by default: a fresh build (make demo, make test, CI, a project
# that adds benchkit with add_subdirectory or FetchContent) compiles the library in about half
# the CPU time. A developer who edits one file at a time configures with
# -DBENCHKIT_UNITY_BUILD=OFF: one changed file then recompiles alone, not with its batch.
option(BENCHKIT_UNITY_BUILD "Compile libbenchkit's sources in batches of one folder (unity build)"
  ON)
# Chosen by measurement (docs/build-time.md, "A unity build"): the library's compiles took 638 CPU
# seconds file by file, 229 in batches of 8, 187 of 16, 156 of a whole folder; larger batches
# share more, but a change to one file recompiles its whole batch (up to 34 s for src/session/ as
# one batch, 21 s for the largest batch of 16).
set(BENCHKIT_UNITY_BATCH_SIZE 16 CACHE STRING
  "Most sources of one folder compiled together in the unity build")

# The test executables (tests/<layer>/*_test.cpp, one per layer) are batched the same way, with
# their own size (docs/build-time.md, "A unity build of the tests"): what a batch shares is
# GoogleTest's and GoogleMock's templates instantiated for its files' checks, fmt and
# nlohmann-json, and the headers of the layer under test. 8 (not the library's 16): the release
# build's test compiles took 339 CPU seconds in batches of 8 where they took 701 file by file;
# smaller batches keep both cores busy to the end of a build and a one-file edit at 13 s (its
# batch) where it was 3 s alone. Sizes 4 and 16 were not measured.
set(BENCHKIT_TEST_UNITY_BATCH_SIZE 8 CACHE STRING
  "Most test files of one test executable compiled together in the unity build")

# benchkit_unity_build(target): groups target's sources of src/<folder>/ by folder, in batches of
# at most BENCHKIT_UNITY_BATCH_SIZE and of even sizes (17 sources in batches of 16: 9 and 8), in
# the order of their names. Sources elsewhere (generated ones) are compiled alone.
function(benchkit_unity_build target)
  benchkit_unity_batches(${target} "/src/([a-z_]+)/[^/]+\\.cpp$" BENCHKIT_UNITY_BATCH_SIZE)
endfunction()

# benchkit_unity_build_tests(target): the same for a test executable's files, tests/<layer>/*.cpp,
# in batches of at most BENCHKIT_TEST_UNITY_BATCH_SIZE. A source with compile options of its own
# is left out of every batch by CMake, so the test files' options are the target's.
function(benchkit_unity_build_tests target)
  benchkit_unity_batches(${target} "/tests/([a-z_]+)/[^/]+\\.cpp$"
    BENCHKIT_TEST_UNITY_BATCH_SIZE)
endfunction()

# benchkit_unity_batches(target regex size_variable): target's sources matching regex, grouped by
# the regex's first capture (their folder) into batches of at most ${size_variable} sources.
function(benchkit_unity_batches target regex size_variable)
  if(NOT BENCHKIT_UNITY_BUILD)
    return()
  endif()
  set(batch_size ${${size_variable}})
  if(NOT batch_size MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${size_variable} is '${batch_size}': give a whole number of sources, 1 "
                        "or more (e.g. -D${size_variable}=16)")
  endif()
  get_target_property(sources ${target} SOURCES)
  set(folders "")
  foreach(source IN LISTS sources)
    if(source MATCHES "${regex}")
      list(APPEND folders ${CMAKE_MATCH_1})
      list(APPEND sources_of_${CMAKE_MATCH_1} ${source})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES folders)
  foreach(folder IN LISTS folders)
    list(SORT sources_of_${folder})
    list(LENGTH sources_of_${folder} total)
    # Batches of even sizes: source i of n goes to batch i * batches / n.
    math(EXPR batches "(${total} + ${batch_size} - 1) / ${batch_size}")
    set(index 0)
    foreach(source IN LISTS sources_of_${folder})
      math(EXPR batch "${index} * ${batches} / ${total}")
      set_property(SOURCE ${source} PROPERTY UNITY_GROUP "${folder}_${batch}")
      math(EXPR index "${index} + 1")
    endforeach()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
