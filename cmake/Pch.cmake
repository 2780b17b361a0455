# Precompiled headers for the clean builds of CI (test.sh and test.sh --sanitize build the whole
# tree from nothing on 2 cores). nlohmann/json.hpp is included, directly or through our headers, by
# more than half of the translation units and costs about 2.8 s of CPU to parse in each at -O1 -g
# (measured 2026-12-02, g++ 12): parsed once per target instead, the two CI builds save minutes.
#
# CZ_PCH=AUTO turns them on unless a compiler launcher (ccache) is set: ccache caches a TU that
# uses a PCH only with special sloppiness settings, and a warm ccache is faster than a PCH anyway.
# The headers are system/library headers only, never ours, so a stale or rejected PCH can change
# build time but never what is compiled (GCC falls back to the headers: -Winvalid-pch says so).
set(CZ_PCH AUTO CACHE STRING "Precompiled headers: AUTO (on unless a compiler launcher is set), ON or OFF")
set(CZ_PCH_ON OFF)
if(CZ_PCH STREQUAL "ON" OR (CZ_PCH STREQUAL "AUTO" AND NOT CMAKE_CXX_COMPILER_LAUNCHER))
  set(CZ_PCH_ON ON)
endif()
message(STATUS "circuitzoo: precompiled headers ${CZ_PCH_ON}")

set(CZ_PCH_HEADERS <nlohmann/json.hpp> <string> <vector> <map> <memory> <optional> <functional>
    <algorithm> <cstdint> <stdexcept>)

# cz_pch(TARGET [REUSE OTHER]): TARGET's C++ sources get the precompiled headers; with REUSE, the
# PCH built for OTHER (same flags: the doctest binaries share theirs).
function(cz_pch target)
  if(NOT CZ_PCH_ON)
    return()
  endif()
  cmake_parse_arguments(P "" "REUSE" "" ${ARGN})
  if(P_REUSE)
    target_precompile_headers(${target} REUSE_FROM ${P_REUSE})
  else()
    set(headers "")
    foreach(h IN LISTS CZ_PCH_HEADERS)  # C++ only: the CUDA sources of a target keep their own
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:${h}>")
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
  endif()
endfunction()
