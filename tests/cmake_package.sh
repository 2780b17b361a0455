#!/usr/bin/env bash
# cmake --install into a staging prefix, then configure, build and run examples/consumer against it
# with find_package(circuitzoo). Usage: cmake_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd); src=$(cd "$2" && pwd)
work="$build/cmake_package_test"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/circuitzoo"
test -f "$work/prefix/share/circuitzoo/plot.py"
test -f "$work/prefix/include/circuitzoo/model/model.h"
test -f "$work/prefix/include/circuitzoo/circuits/circuit.h"
test -f "$work/prefix/lib/cmake/circuitzoo/circuitzooConfig.cmake"
# Consumers have PREFIX/include on their path, never PREFIX/include/circuitzoo, whose generic
# folder names (util/, model/) would collide with theirs (issue 39); the installed headers include
# each other as <circuitzoo/...>.
grep -q 'INTERFACE_INCLUDE_DIRECTORIES "${_IMPORT_PREFIX}/include"' "$work/prefix/lib/cmake/circuitzoo/circuitzoo_coreTargets.cmake"
! grep -q 'include/circuitzoo' "$work/prefix/lib/cmake/circuitzoo/circuitzoo_coreTargets.cmake"
if grep -rnE '#include "(app|circuits|constructions|exact|gpu|model|tasks|tensor|util|verify)/' "$work/prefix/include/circuitzoo"; then
  echo "installed headers include the build tree's paths (above)"; exit 1
fi
grep -q '#include <circuitzoo/model/' "$work/prefix/include/circuitzoo/verify/construction.h"
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples/consumer" -B "$work/consumer" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
out=$("$work/consumer/consumer" primitive/shift_down)
echo "$out"
grep -q "passed" <<<"$out"
# A consumer of the core alone configures and builds with MPI, CUDAToolkit and Boost unfindable
# (issue 26 item 6: the package looks for each component's dependencies only when it is asked for).
cmake -S "$src/tests/cmake_package/core_consumer" -B "$work/core_consumer" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON --no-warn-unused-cli >/dev/null
cmake --build "$work/core_consumer" >/dev/null
"$work/core_consumer/core_consumer"
# The installed CLI finds the installed plot.py (not the source tree's).
"$work/prefix/bin/circuitzoo" --version
# The installed Python package (when the module was built) imports from the prefix.
pkg="$work/prefix/lib/python3/dist-packages"
if [ -d "$pkg/circuitzoo" ] && [ -x /usr/bin/python3 ]; then
  PYTHONPATH="$pkg" /usr/bin/python3 -c "import circuitzoo, sys; assert circuitzoo.__file__.startswith(sys.argv[1]); print(len(circuitzoo.list()), 'constructions from', circuitzoo.__file__)" "$pkg"
fi
rm -rf "$work"
