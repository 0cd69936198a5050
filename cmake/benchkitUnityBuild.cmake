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

# benchkit_unity_build(target): groups target's sources of src/<folder>/ by folder, in batches of
# at most BENCHKIT_UNITY_BATCH_SIZE and of even sizes (17 sources in batches of 16: 9 and 8), in
# the order of their names. Sources elsewhere (generated ones) are compiled alone.
function(benchkit_unity_build target)
  if(NOT BENCHKIT_UNITY_BUILD)
    return()
  endif()
  if(NOT BENCHKIT_UNITY_BATCH_SIZE MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "BENCHKIT_UNITY_BATCH_SIZE is '${BENCHKIT_UNITY_BATCH_SIZE}': give a "
                        "whole number of sources, 1 or more (e.g. -DBENCHKIT_UNITY_BATCH_SIZE=16)")
  endif()
  get_target_property(sources ${target} SOURCES)
  set(folders "")
  foreach(source IN LISTS sources)
    if(source MATCHES "/src/([a-z_]+)/[^/]+\\.cpp$")
      list(APPEND folders ${CMAKE_MATCH_1})
      list(APPEND sources_of_${CMAKE_MATCH_1} ${source})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES folders)
  foreach(folder IN LISTS folders)
    list(SORT sources_of_${folder})
    list(LENGTH sources_of_${folder} total)
    # Batches of even sizes: source i of n goes to batch i * batches / n.
    math(EXPR batches "(${total} + ${BENCHKIT_UNITY_BATCH_SIZE} - 1) / ${BENCHKIT_UNITY_BATCH_SIZE}")
    set(index 0)
    foreach(source IN LISTS sources_of_${folder})
      math(EXPR batch "${index} * ${batches} / ${total}")
      set_property(SOURCE ${source} PROPERTY UNITY_GROUP "${folder}_${batch}")
      math(EXPR index "${index} + 1")
    endforeach()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
