#!/usr/bin/env bash
# Builds the CUDA kernels HERE (nvcc compiles for sm_90 without a GPU) and packs what the lent
# device machine runs into .gpu/ (git-ignored, < 64 MiB): the CLI, the GPU tests and benchmarks,
# every shared library they load that is not glibc or the CUDA driver, the check script and the
# PyTorch anchor. Then, on the device (../shared/notes/device.md):
#   run carry [".gpu"]: bash .gpu/gpu-check.sh   (it gives .gpu/lib to our binaries only; --dry-run: steps, limits)
# usage: scripts/gpu-bundle.sh [BUILD_DIR]   (default build-gpu)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
B="${1:-$ROOT/build-gpu}"
cd "$ROOT"
NVCC="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
[ -x "$NVCC" ] || { echo "error: no nvcc at $NVCC (set CUDACXX) (gpu-bundle)" >&2; exit 2; }
LAUNCH=()
command -v ccache >/dev/null && LAUNCH=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCZ_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCZ_MPI=OFF -DCZ_PYTHON=OFF "${LAUNCH[@]}" >/dev/null
targets=(circuitzoo test_gpu test_gpu_device)
ninja -C "$B" -t targets all 2>/dev/null | grep -q '^bench_gpu:' && targets+=(bench_gpu)
ninja -C "$B" "${targets[@]}"

G="$ROOT/.gpu"
rm -rf "$G"
mkdir -p "$G/bin" "$G/lib" "$G/tests"
for t in "${targets[@]}"; do
  f=$(find "$B" -maxdepth 3 -type f -name "$t" -perm -u+x | head -1)
  [ -n "$f" ] || { echo "error: built target $t not found (gpu-bundle)" >&2; exit 2; }
  cp "$f" "$G/bin/" && strip "$G/bin/$t"
done
# Shared libraries the binaries load, but not glibc's own (the device has them) nor the driver.
for b in "$G"/bin/*; do
  ldd "$b" | awk '/=> \//{print $3}'
done | sort -u | grep -Ev '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libcuda|libnvidia[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$G/lib/"; done
cp scripts/gpu-check.sh "$G/"
cp tests/gpu/gpu_device_cli.sh "$G/tests/"
[ -f "$ROOT/../shared/bench/torch_fftconv.py" ] && cp "$ROOT/../shared/bench/torch_fftconv.py" "$G/"
# Keep the bundle out of git also in a worktree (.git may be a file there).
ex="$(git rev-parse --git-path info/exclude)"
mkdir -p "$(dirname "$ex")"
grep -qx '.gpu/' "$ex" 2>/dev/null || echo '.gpu/' >>"$ex"
size=$(du -sm "$G" | cut -f1)
echo "gpu-bundle: .gpu/ is ${size} MiB ($(ls "$G/bin" | tr '\n' ' '); $(ls "$G/lib" | wc -l) libraries)"
[ "$size" -lt 64 ] || { echo "error: .gpu/ is ${size} MiB, over the 64 MiB a device run can carry (gpu-bundle)" >&2; exit 2; }
