# CZ_SANITIZE=ON builds every target with AddressSanitizer (LeakSanitizer included on Linux) and
# UndefinedBehaviorSanitizer: -O1 (fast enough to run the whole suite; overrides the build type's
# -O), frame pointers for readable stacks, and no recovery, so the first finding stops the program.
# Used by `scripts/test.sh --sanitize` (build-asan/). The runtime options (halt_on_error, leak
# detection, log files) are set there, not here, so a sanitized binary can also be run by hand.
option(CZ_SANITIZE "Build with ASan + UBSan + LSan" OFF)
if(CZ_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "CZ_SANITIZE needs GCC or Clang (got ${CMAKE_CXX_COMPILER_ID})")
  endif()
  set(CZ_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # -g1 (line tables): enough for symbolised sanitizer stacks, and cheaper to compile and link
  # than full -g in the CI pass that builds the whole tree.
  add_compile_options(${CZ_SANITIZE_FLAGS} -O1 -g1)
  add_link_options(${CZ_SANITIZE_FLAGS})
endif()
