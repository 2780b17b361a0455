# FLINT 2.9 ships no pkg-config file and no CMake config (build-recipe §1, pitfall 4).
# Headers are included as <flint/x.h>; never add /usr/include/flint to the path.
find_path(FLINT_INCLUDE_DIR NAMES flint/flint.h)
find_library(FLINT_LIBRARY NAMES flint)
find_path(GMP_INCLUDE_DIR NAMES gmp.h)
find_library(GMP_LIBRARY NAMES gmp)
find_library(MPFR_LIBRARY NAMES mpfr)
if(FLINT_INCLUDE_DIR AND EXISTS "${FLINT_INCLUDE_DIR}/flint/flint.h")
  file(STRINGS "${FLINT_INCLUDE_DIR}/flint/flint.h" _flint_v REGEX "^#define FLINT_VERSION \"")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" FLINT_VERSION "${_flint_v}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FLINT
  REQUIRED_VARS FLINT_LIBRARY FLINT_INCLUDE_DIR GMP_LIBRARY GMP_INCLUDE_DIR MPFR_LIBRARY
  VERSION_VAR FLINT_VERSION)
if(FLINT_FOUND AND NOT TARGET FLINT::FLINT)
  add_library(FLINT::FLINT UNKNOWN IMPORTED)
  set_target_properties(FLINT::FLINT PROPERTIES
    IMPORTED_LOCATION "${FLINT_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FLINT_INCLUDE_DIR};${GMP_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${GMP_LIBRARY};${MPFR_LIBRARY}")
endif()
mark_as_advanced(FLINT_INCLUDE_DIR FLINT_LIBRARY GMP_INCLUDE_DIR GMP_LIBRARY MPFR_LIBRARY)
