# The system libraries libbenchkit links: libmd (SHA-256 of the executable), SQLite and zstd (the
# history, src/store/). Used by the build (CMakeLists.txt) and by benchkitConfig.cmake, so that a
# consumer links them the way the library was built.
#
# Their static archives are linked when the system has all three (Debian's -dev packages ship
# them) and BENCHKIT_STATIC_SYSTEM_LIBRARIES is ON (the default): a bench binary then maps no
# shared SQLite, zstd or libmd, whose loading alone kept 0.4 MiB resident in every run (their
# symbol tables, relocations and data) although a run that records no history calls none of them.
# Only the archive members a program uses are linked. OFF, or without the archives, the shared
# libraries that pkg-config names are linked instead.
#
# The same target carries one link option for the programs that link the library, where the
# linker and the C library support it (GNU ld 2.38, lld 15; glibc 2.36) and
# BENCHKIT_PACK_RELOCATIONS is ON (the default): -z pack-relative-relocs, which packs the
# relocations of a position-independent executable's pointers into a bitmap (DT_RELR). The
# loader reads all of them at start-up, in every process of a run: a bench binary's 83 KiB of
# relocations became 11 KiB and a 744-byte bitmap.
#
# A second target, benchkit::static_runtime, carries the link options of a bench binary (a
# program that links benchkit::main) where BENCHKIT_STATIC_RUNTIME is ON (the default) and the
# compiler can link them: -static-libstdc++ -static-libgcc. The binary then maps no libstdc++.so
# and no libgcc_s.so; only the archive members it uses are linked. libstdc++.so alone kept about
# 1.5 MiB resident in every process of a run, most of it code the run never executes, where the
# members a bench binary links keep a few hundred KiB. The cost: a bench binary that also loads
# a shared library built against libstdc++.so holds two copies of the C++ runtime, which is
# safe for what passes between them by value or through virtual calls, but not for objects of
# the runtime's own global state (std::cout, locales) shared across that boundary. Such a
# binary should be configured with -DBENCHKIT_STATIC_RUNTIME=OFF (docs/packaging.md). Where
# BENCHKIT_RUNTIME_DIR is set, the libstdc++.a linked is the one in that folder.
#
# Defines the imported targets benchkit::system_libraries and benchkit::static_runtime.
include_guard(GLOBAL)
include(CheckLinkerFlag)

# The compiler's libstdc++.a, absolute and resolved, in out_var; empty where the compiler names
# no such archive. The build makes its hot-layout copy from it, and a consumer links that copy
# only when its own compiler names the same archive: both sides resolve it here, alike.
function(benchkit_compiler_runtime_archive out_var)
  set(${out_var} "" PARENT_SCOPE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.a
    OUTPUT_VARIABLE archive OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed OR NOT IS_ABSOLUTE "${archive}" OR NOT EXISTS "${archive}")
    return()
  endif()
  file(REAL_PATH "${archive}" archive)
  set(${out_var} "${archive}" PARENT_SCOPE)
endfunction()

function(benchkit_find_system_libraries)
  if(TARGET benchkit::system_libraries)
    return()
  endif()
  find_package(PkgConfig REQUIRED)
  find_package(Threads REQUIRED)
  pkg_check_modules(LIBMD REQUIRED IMPORTED_TARGET libmd)
  pkg_check_modules(BENCHKIT_HISTORY REQUIRED IMPORTED_TARGET sqlite3 libzstd)
  add_library(benchkit::system_libraries INTERFACE IMPORTED)
  set(archives)
  if(BENCHKIT_STATIC_SYSTEM_LIBRARIES)
    foreach(name sqlite3 zstd md)
      find_library(BENCHKIT_${name}_ARCHIVE NAMES lib${name}.a
        HINTS ${BENCHKIT_HISTORY_LIBRARY_DIRS} ${LIBMD_LIBRARY_DIRS})
      if(BENCHKIT_${name}_ARCHIVE)
        list(APPEND archives ${BENCHKIT_${name}_ARCHIVE})
      endif()
    endforeach()
  endif()
  list(LENGTH archives found)
  if(found EQUAL 3)
    # What the archives need from the system (pkg-config --static --libs sqlite3 libzstd libmd).
    set_target_properties(benchkit::system_libraries PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${BENCHKIT_HISTORY_INCLUDE_DIRS};${LIBMD_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES "${archives};Threads::Threads;m")
    set(BENCHKIT_SYSTEM_LIBRARIES_LINKED "static archives (${archives})" PARENT_SCOPE)
  else()
    set_target_properties(benchkit::system_libraries PROPERTIES
      INTERFACE_LINK_LIBRARIES "PkgConfig::LIBMD;PkgConfig::BENCHKIT_HISTORY")
    set(BENCHKIT_SYSTEM_LIBRARIES_LINKED "shared libraries" PARENT_SCOPE)
  endif()
  add_library(benchkit::static_runtime INTERFACE IMPORTED)
  if(NOT DEFINED BENCHKIT_STATIC_RUNTIME OR BENCHKIT_STATIC_RUNTIME)
    check_linker_flag(CXX "-static-libstdc++;-static-libgcc" BENCHKIT_LINKER_LINKS_STATIC_RUNTIME)
    if(BENCHKIT_LINKER_LINKS_STATIC_RUNTIME)
      set_property(TARGET benchkit::static_runtime APPEND PROPERTY
        INTERFACE_LINK_OPTIONS "-static-libstdc++;-static-libgcc")
      # The folder of a copy of libstdc++.a in the hot layout (cmake/benchkitHotLayout.cmake),
      # found before the compiler's own by -static-libstdc++'s -lstdc++.
      if(BENCHKIT_RUNTIME_DIR)
        set_property(TARGET benchkit::static_runtime APPEND PROPERTY
          INTERFACE_LINK_DIRECTORIES "${BENCHKIT_RUNTIME_DIR}")
      endif()
    endif()
  endif()
  if(NOT DEFINED BENCHKIT_PACK_RELOCATIONS OR BENCHKIT_PACK_RELOCATIONS)
    check_linker_flag(CXX "-Wl,-z,pack-relative-relocs" BENCHKIT_LINKER_PACKS_RELOCATIONS)
    if(BENCHKIT_LINKER_PACKS_RELOCATIONS)
      set_property(TARGET benchkit::system_libraries APPEND PROPERTY
        INTERFACE_LINK_OPTIONS "-Wl,-z,pack-relative-relocs")
    endif()
  endif()
endfunction()
