# The Python module `circuitzoo` (python/): option CZ_PYTHON, ON by default when pybind11 and the
# Python 3 development headers are found. Debian's /usr/bin/python3 is preferred over any other
# python3 on PATH (pyenv), so the module imports with the system python. python/CMakeLists.txt
# makes the libraries the module links position-independent (-fPIC).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
set(_cz_python_default OFF)
if(Python3_Development.Module_FOUND)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 CONFIG QUIET)
  if(pybind11_FOUND)
    set(_cz_python_default ON)
  endif()
endif()
option(CZ_PYTHON "Build the Python module circuitzoo (pybind11)" ${_cz_python_default})
if(CZ_PYTHON)
  if(NOT pybind11_FOUND)
    message(FATAL_ERROR "CZ_PYTHON=ON needs pybind11 (python3-pybind11 / pybind11-dev) and Python 3 headers")
  endif()
  # Where `cmake --install` puts the package (relative to the prefix): Debian's layout by default.
  set(CZ_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING "install directory of the Python package")
endif()
