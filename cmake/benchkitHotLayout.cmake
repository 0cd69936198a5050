# The hot layout of libbenchkit (scripts/hot-functions says why): every function gets its own
# section (-ffunction-sections), and once the archive is made, objcopy renames the sections of
# the functions listed in cmake/hot-functions.txt from .text.NAME to .text.sorted.RANK.NAME.
# GNU ld (2.34 and later) places .text.sorted.* input sections together, in order of name, so
# the code a bench binary executes is contiguous in every binary that links the library, a
# consumer's included, with no flag of its own. Other linkers keep them among the rest of .text.
#
# The same renaming is applied to the C++ runtime a bench binary links statically
# (BENCHKIT_STATIC_RUNTIME): a copy of the compiler's libstdc++.a, whose listed functions join
# the library's in the sorted group, is made in BUILD/runtime/, and benchkit::static_runtime puts
# that folder first on a bench binary's library path. Without it the run's libstdc++ code lay at
# the end of the binary's text, spread over 0.9 MiB of it.
#
# BENCHKIT_HOT_LAYOUT=OFF builds the library without it; the layout changes no behaviour.
option(BENCHKIT_HOT_LAYOUT "Place the functions a run executes together in libbenchkit" ON)

function(benchkit_hot_layout target)
  if(NOT BENCHKIT_HOT_LAYOUT OR NOT CMAKE_OBJCOPY OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    return()
  endif()
  set(list_file ${PROJECT_SOURCE_DIR}/cmake/hot-functions.txt)
  set(args_file ${PROJECT_BINARY_DIR}/generated/hot-sections.args)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
  file(STRINGS ${list_file} lines REGEX "^[0-9]+ [A-Za-z_]")
  list(TRANSFORM lines REPLACE "^([0-9]+) (.*)$" "--rename-section .text.\\2=.text.sorted.\\1.\\2")
  list(JOIN lines "\n" args)
  file(CONFIGURE OUTPUT ${args_file} CONTENT "${args}\n" @ONLY)
  target_compile_options(${target} PRIVATE -ffunction-sections)
  # A source that changes with the list: a new list makes the archive again, and so renames
  # its sections again (an archive's rule has no other input to depend on it by).
  file(SHA256 ${list_file} list_hash)
  set(stamp_file ${PROJECT_BINARY_DIR}/generated/hot_layout_stamp.cpp)
  file(CONFIGURE OUTPUT ${stamp_file} CONTENT
    "// The sections of libbenchkit were renamed with cmake/hot-functions.txt of this hash.\n\
namespace benchkit::detail {\n\
extern const char kHotLayoutList[];\n\
const char kHotLayoutList[] = \"${list_hash}\";\n\
}  // namespace benchkit::detail\n")
  target_sources(${target} PRIVATE ${stamp_file})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} @${args_file} $<TARGET_FILE:${target}>
    COMMENT "Placing the functions a run executes together in $<TARGET_FILE_NAME:${target}>"
    VERBATIM)
endfunction()

# benchkit_hot_layout_objects(target): the object library target whose objects the archive of
# benchkit_hot_layout holds compiled with a section per function too.
function(benchkit_hot_layout_objects target)
  if(BENCHKIT_HOT_LAYOUT AND CMAKE_OBJCOPY AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_compile_options(${target} PRIVATE -ffunction-sections)
  endif()
endfunction()

# The compiler's libstdc++.a (benchkit_compiler_runtime_archive, of benchkitSystemLibraries.cmake)
# in out_var; empty where the layout is off or the compiler names no such archive.
function(benchkit_hot_runtime_source out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(NOT BENCHKIT_HOT_LAYOUT OR NOT CMAKE_OBJCOPY OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    return()
  endif()
  benchkit_compiler_runtime_archive(archive)
  set(${out_var} "${archive}" PARENT_SCOPE)
endfunction()

# Makes folder/libstdc++.a from source with the sections of cmake/hot-functions.txt renamed
# (after benchkit_hot_layout, which writes the arguments); target benchkit_hot_runtime.
function(benchkit_hot_runtime source folder)
  set(args_file ${PROJECT_BINARY_DIR}/generated/hot-sections.args)
  add_custom_command(OUTPUT ${folder}/libstdc++.a
    COMMAND ${CMAKE_COMMAND} -E make_directory ${folder}
    COMMAND ${CMAKE_OBJCOPY} @${args_file} ${source} ${folder}/libstdc++.a
    DEPENDS ${source} ${args_file}
    COMMENT "Placing the C++ runtime's functions a run executes together in runtime/libstdc++.a"
    VERBATIM)
  add_custom_target(benchkit_hot_runtime ALL DEPENDS ${folder}/libstdc++.a)
endfunction()
