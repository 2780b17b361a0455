# `cmake --install build --prefix P`: the CLI (bin/circuitzoo), scripts/plot.py
# (share/circuitzoo, where `sweep --plot` finds it), the headers (P/include/circuitzoo/..., the
# tree's folders under one name: consumers have P/include on their path and write
# #include <circuitzoo/model/model.h>, <circuitzoo/circuits/circuit.h>; issue 39), the libraries
# and a CMake package:
#   find_package(circuitzoo REQUIRED)                      # every component whose dependencies are found
#   find_package(circuitzoo REQUIRED COMPONENTS core)      # core + circuits only: no MPI, CUDA or Boost looked for
#   target_link_libraries(app PRIVATE circuitzoo::constructions circuitzoo::engine circuitzoo::circuits circuitzoo::core)
# circuitzoo::constructions is an object library (every construction registers itself at start-up).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(cz_core PROPERTIES EXPORT_NAME core)
set_target_properties(cz_circuits PROPERTIES EXPORT_NAME circuits)
set_target_properties(cz_constructions PROPERTIES EXPORT_NAME constructions)
set_target_properties(cz_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(cz_gpu PROPERTIES EXPORT_NAME gpu)
set_target_properties(cz_options PROPERTIES EXPORT_NAME options)

install(TARGETS circuitzoo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS scripts/plot.py DESTINATION ${CMAKE_INSTALL_DATADIR}/circuitzoo)
# One export set per component (issue 26 item 6), so that circuitzooConfig.cmake finds each
# component's dependencies only when that component is asked for: core (core, circuits, options)
# needs FLINT, nlohmann_json and Threads; gpu adds CUDAToolkit when built with CUDA; engine adds
# MPI when built with it; constructions needs gpu. Boost is for the tests only.
foreach(_cz_comp IN ITEMS core gpu constructions engine)
  if(_cz_comp STREQUAL "core")
    set(_cz_targets cz_options cz_core cz_circuits)
  else()
    set(_cz_targets cz_${_cz_comp})
  endif()
  install(TARGETS ${_cz_targets} EXPORT circuitzoo_${_cz_comp}Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/circuitzoo/objects)
endforeach()
install(DIRECTORY src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo FILES_MATCHING PATTERN "*.h")
install(DIRECTORY circuits/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo/circuits FILES_MATCHING PATTERN "*.h")
install(DIRECTORY app/engine app/report DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo/app FILES_MATCHING PATTERN "*.h")
install(DIRECTORY gpu/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo/gpu FILES_MATCHING PATTERN "*.h")
install(DIRECTORY constructions/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo/constructions FILES_MATCHING PATTERN "*.h")
# The installed headers include each other as <circuitzoo/...> (cmake/CzInstallHeaders.cmake).
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(_cz_header_dir "\$ENV{DESTDIR}${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo")
else()
  set(_cz_header_dir "\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}/circuitzoo")
endif()
install(CODE "set(CZ_HEADER_DIR \"${_cz_header_dir}\")
include(\"${CMAKE_CURRENT_SOURCE_DIR}/cmake/CzInstallHeaders.cmake\")")

set(CZ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/circuitzoo)
foreach(_cz_comp IN ITEMS core gpu constructions engine)
  install(EXPORT circuitzoo_${_cz_comp}Targets NAMESPACE circuitzoo:: DESTINATION ${CZ_CMAKE_DIR})
endforeach()
configure_package_config_file(cmake/circuitzooConfig.cmake.in ${CMAKE_BINARY_DIR}/circuitzooConfig.cmake
  INSTALL_DESTINATION ${CZ_CMAKE_DIR} PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/circuitzooConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/circuitzooConfig.cmake ${CMAKE_BINARY_DIR}/circuitzooConfigVersion.cmake
  cmake/FindFLINT.cmake DESTINATION ${CZ_CMAKE_DIR})
