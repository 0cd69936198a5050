# Records the consuming project's compile flags in BENCHKIT_CONSUMER_FLAGS, a compile
# definition every benchmark translation unit sees, so results say how the benchmarks were
# compiled. Quotes and backslashes are dropped (they cannot travel in a definition safely).
#
# It also maps the consuming target's source folder out of __FILE__
# (-fmacro-prefix-map=SOURCE_DIR/=), which the registration macros keep for their messages:
# without it a bench binary holds the absolute path of its checkout, and two builds of one
# commit checked out at two paths (CI runners, ab's worktrees, the shards of a suite) differ in
# those bytes, so `benchkit merge` would take them for different builds. Prefix maps (this one
# and any -ffile-, -fmacro- or -fdebug-prefix-map of the project's own flags) are left out of
# the recorded flags: they are about paths, not code, and would carry the path again.
function(benchkit_record_consumer_flags target mode)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  set(flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  string(REGEX REPLACE "[\"\\\\]" "" flags "${flags}")
  string(REGEX REPLACE "-f(file|macro|debug)-prefix-map=[^ ]*" "" flags "${flags}")
  string(REGEX REPLACE "  +" " " flags "${flags}")
  string(STRIP "${flags}" flags)
  set(options
      "$<JOIN:$<FILTER:$<TARGET_PROPERTY:COMPILE_OPTIONS>,EXCLUDE,^-f(file|macro|debug)-prefix-map=>, >")
  set(definition "BENCHKIT_CONSUMER_FLAGS=\"${flags} ${options}\"")
  set(prefix_map
      "$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-fmacro-prefix-map=$<TARGET_PROPERTY:SOURCE_DIR>/=>")
  if(mode STREQUAL "BUILD")
    target_compile_definitions(${target} INTERFACE "$<BUILD_INTERFACE:${definition}>")
    target_compile_options(${target} INTERFACE "$<BUILD_INTERFACE:${prefix_map}>")
  else()
    # The build tree's own export (find_package with CMAKE_PREFIX_PATH set to a build folder)
    # carries the BUILD_INTERFACE values above, the flags benchkit itself was compiled with:
    # they are replaced, not added to (two definitions warned "redefined" on every compile and
    # recorded benchkit's -O3 for a consumer's -O2).
    get_target_property(definitions ${target} INTERFACE_COMPILE_DEFINITIONS)
    if(definitions)
      list(FILTER definitions EXCLUDE REGEX "^BENCHKIT_CONSUMER_FLAGS=")
      set_property(TARGET ${target} PROPERTY INTERFACE_COMPILE_DEFINITIONS "${definitions}")
    endif()
    get_target_property(options_before ${target} INTERFACE_COMPILE_OPTIONS)
    if(options_before)
      list(FILTER options_before EXCLUDE REGEX "fmacro-prefix-map=.*TARGET_PROPERTY:SOURCE_DIR")
      set_property(TARGET ${target} PROPERTY INTERFACE_COMPILE_OPTIONS "${options_before}")
    endif()
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS "${definition}")
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_COMPILE_OPTIONS "${prefix_map}")
  endif()
endfunction()
