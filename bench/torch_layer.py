#!/usr/bin/env python3
"""Anchor for a whole BaseConv layer (issue 11): what a PyTorch user runs, on one CPU thread.

    y = (x @ W + b1) * (fftconv(x, h) + b2)      x, b1, b2: N×d;  W: d×d;  h: d×N

as zoology's BaseConv lays it out: the projection on the sequence-major x, the convolution along
the sequence of the transposed x (one contiguous copy, as zoology's u.transpose feeds its fftconv)
with the float FFT convolution of bench/anchors/torch_fftconv.py (rfft of x and h at 2N,
product, irfft, first N), and the gating on the transposed-back result. (An FFT along dim 0 of
the N×d tensor instead was 10x slower at N = 2^12, measured: not what a user runs.) The same
projection and gating as bench_ntt's BM_layer_ntt, all entries in [-9, 9]. The shared script
times the convolution alone and has no projection, hence this one.
Prints one JSON line per N: thread-CPU milliseconds (median) for float32 and float64.

usage: torch_layer.py [--d 16] [--logN 12 14 16]
"""
import argparse, json, sys, time

try:
    import torch
except ImportError as e:  # exit 77: skipped (ctest and conv_ratios.py read it so)
    print(f"{__file__}: skipped: {e.name} is not installed (Debian: apt-get install python3-torch python3-numpy; run with /usr/bin/python3)", file=sys.stderr)
    sys.exit(77)

ap = argparse.ArgumentParser()
ap.add_argument("--d", type=int, default=16)
ap.add_argument("--logN", type=int, nargs="+", default=[12, 14, 16])
a = ap.parse_args()
torch.set_num_threads(1)

for lg in a.logN:
    N = 1 << lg
    reps = 21 if lg <= 12 else (11 if lg <= 14 else 5)
    g = torch.Generator().manual_seed(1)
    ri = lambda *shape: torch.randint(-9, 10, shape, generator=g)
    xi, Wi, b1i, hi, b2i = ri(N, a.d), ri(a.d, a.d), ri(N, a.d), ri(a.d, N), ri(N, a.d)
    row = {"N": N, "d": a.d}
    for dt in (torch.float32, torch.float64):
        x, W, b1, h, b2 = (t.to(dt) for t in (xi, Wi, b1i, hi, b2i))

        def layer():
            proj = torch.addmm(b1, x, W)
            fx = torch.fft.rfft(x.t().contiguous(), n=2 * N)
            fh = torch.fft.rfft(h, n=2 * N)
            conv = torch.fft.irfft(fx * fh, n=2 * N)[..., :N]
            return proj * (conv.t() + b2)

        layer()
        times = []
        for _ in range(reps):
            t0 = time.thread_time(); y = layer(); times.append(time.thread_time() - t0)
        times.sort()
        row[str(dt).split(".")[1] + "_ms"] = round(times[len(times) // 2] * 1e3, 4)
    print(json.dumps(row), flush=True)
