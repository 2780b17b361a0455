# Run by `cmake --install` (cmake/CzInstall.cmake) after the headers are copied: the installed tree
# is PREFIX/include/circuitzoo/... and consumers have PREFIX/include on their include path (issue
# 39), so the headers' own includes of the project's folders ("model/model.h", "circuits/io.h")
# are rewritten to <circuitzoo/model/model.h>. The build tree keeps its layout and its includes.
# CZ_HEADER_DIR: the installed PREFIX/include/circuitzoo.
file(GLOB_RECURSE _cz_headers "${CZ_HEADER_DIR}/*.h")
foreach(_cz_h IN LISTS _cz_headers)
  file(READ "${_cz_h}" _cz_text)
  string(REGEX REPLACE "#include \"(app|circuits|constructions|exact|gpu|model|tasks|tensor|util|verify)/([^\"]*)\""
                       "#include <circuitzoo/\\1/\\2>" _cz_new "${_cz_text}")
  if(NOT _cz_new STREQUAL _cz_text)
    file(WRITE "${_cz_h}" "${_cz_new}")
  endif()
endforeach()
