# Records the consuming project's compile flags in BENCHKIT_CONSUMER_FLAGS, a compile
# definition every benchmark translation unit sees, so results say how the benchmarks were
# compiled. Quotes and backslashes are dropped (they cannot travel in a definition safely).
function(benchkit_record_consumer_flags target mode)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  set(flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  string(REGEX REPLACE "[\"\\\\]" "" flags "${flags}")
  string(STRIP "${flags}" flags)
  set(options "$<JOIN:$<TARGET_PROPERTY:COMPILE_OPTIONS>, >")
  set(definition "BENCHKIT_CONSUMER_FLAGS=\"${flags} ${options}\"")
  if(mode STREQUAL "BUILD")
    target_compile_definitions(${target} INTERFACE "$<BUILD_INTERFACE:${definition}>")
  else()
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS "${definition}")
  endif()
endfunction()
