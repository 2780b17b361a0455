#!/usr/bin/env python3
"""Ratios for issue 10, measured in one run on one core (thread CPU time on both sides):
exhaustive MQAR n=4 c=4 instances/s per core of each MQAR construction's block path (and, with
--scalar, its scalar path) against the plain Python dict solver bench/anchors/mqar_ref.py
(called, not copied), and sd/based-jrt n=3 exhaustive seconds.

usage: bench/ratios.py [BUILD_DIR] [--scalar]   (BUILD_DIR default: build; run from anywhere)
Anchor: bench/anchors/mqar_ref.py (in this repository; MQAR_REF=PATH overrides it). The default
(block paths) takes about 10 s of CPU; --scalar adds the scalar paths (about 80 s more, measured on
a shared 2-core machine). Exit 77 when bench_block is not built. (--no-scalar, the old flag for
the default, is still accepted.)
"""
import json, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = args[0] if args else os.path.join(root, "build")
ref = os.environ.get("MQAR_REF", os.path.join(root, "bench", "anchors", "mqar_ref.py"))

print(f"anchor: {os.path.relpath(ref)} (python dict solver, n=4 c=4); ours: bench_block in {os.path.relpath(build)}", flush=True)
py = json.loads(subprocess.run([sys.executable, ref, "4", "4"], check=True, capture_output=True, text=True).stdout)
flt = "." if "--scalar" in sys.argv else "block/"
exe = next((p for p in (os.path.join(build, "bench", "bench_block"), os.path.join(build, "bench_block")) if os.path.exists(p)),
           os.path.join(build, "bench", "bench_block"))
if not os.path.exists(exe):
    print(f"no bench binary at {exe}: build it with `cmake --build {os.path.relpath(build)} --target bench_block`", file=sys.stderr)
    sys.exit(77)
print(f"running {os.path.relpath(exe)} (one thread; {'about 90 s' if flt == '.' else 'a few seconds'} of CPU) ...",
      file=sys.stderr, flush=True)
out = subprocess.run([exe, "--benchmark_format=json", "--benchmark_filter=" + flt],
                     check=True, capture_output=True, text=True).stdout
rows = json.loads(out)["benchmarks"]
print(f"python dict solver (mqar_ref.py 4 4): {py['instances_per_s']:,} instances/s ({py['cpu_s']} s CPU)")
print(f"{'benchmark':40} {'CPU s':>8} {'inst/s/core':>14} {'x python':>9}")
for r in rows:
    if "error_occurred" in r and r["error_occurred"]:
        print(f"{r['name']:40} ERROR {r.get('error_message', '')}")
        continue
    cpu = r["cpu_time"]  # seconds (Unit kSecond), one iteration
    ips = r["items_per_second"]
    ratio = f"{ips / py['instances_per_s']:.1f}" if "mqar" in r["name"] else "-"
    print(f"{r['name']:40} {cpu:8.3f} {ips:14,.0f} {ratio:>9}")
