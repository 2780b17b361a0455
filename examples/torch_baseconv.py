#!/usr/bin/env python3
"""Run circuitzoo's exact BaseConv weights in a plain PyTorch stack and measure float rounding.

    circuitzoo export primitive/remember --format safetensors -o w.safetensors
    /usr/bin/python3 examples/torch_baseconv.py w.safetensors    # float64 / float32 / bfloat16 errors
    /usr/bin/python3 examples/torch_baseconv.py --sweep --cli build/circuitzoo   # first N where float32 rounds wrong

Inputs are drawn from [-1000, 1000] by default (--range): on small inputs such as [-3, 3] every
precision looks exact (bfloat16 holds integers up to 256 exactly), which says nothing about it.
What runs in which precision (rows of the report):
  float64, float32   weights, inputs and every op in that dtype; convolutions by FFT (zoology's fft_conv)
  bfloat16           weights, inputs and every op output in bfloat16; the convolution is a bfloat16
                     Toeplitz matmul (no FFT: torch has none in bfloat16); a CPU matmul accumulates one
                     product's sum in float32 and rounds it to bfloat16, as tensor cores do
  bfloat16+fft32     bfloat16 weights, inputs and activations, the FFT convolution in float32 (what
                     torch.autocast runs: zoology's FFTs are not autocast to bfloat16)
circuitzoo.torch (python/circuitzoo/torch.py) has the same layers as an importable module.

Weights (src/model/weights.h): layer i of a model is
    baseconv  y = (u @ projection.weight.T + projection.bias) * (conv.filter ∗ u + conv.bias)
with `projection.*` named as in zoology's BaseConv (zoology/mixers/base_conv.py) and `conv.filter`
laid out like zoology's LongConvolution.filter (d', N'). Unlike zoology there is NO residual `+ u`
and no identity filter tap; biases are per position (N', d'). The conv mode (causal, cyclic or
anticausal) is in the metadata. Only numpy is needed to load the files and evaluate them exactly
(Python ints); PyTorch (Debian's python3-torch) is needed for the float runs, which are skipped
without it.

The sweep exports `primitive/cumsum` (one causal BaseConv layer with a length-N filter) at
N = 2^4 .. 2^max, feeds 8-bit inputs, runs zoology's FFT convolution in float32 and reports, per
N, the fraction of output entries whose nearest integer differs from the exact one, and the first
N where any does: an integer answer (such as a token id an MQAR construction reads off its output)
changes at that N. It does not decode MQAR outputs of a full MQAR construction.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

try:
    import torch
except ImportError:  # the numpy part (loading, exact evaluation) works without torch
    torch = None

_DTYPES = {"I64": np.dtype("<i8"), "I32": np.dtype("<i4"), "F32": np.dtype("<f4"), "F64": np.dtype("<f8"),
           "U8": np.dtype("u1"), "I8": np.dtype("i1")}


def load_safetensors(path):
    """(tensors: name -> numpy array, metadata: dict of str) of a .safetensors file, with numpy only."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = memoryview(raw)[8 + n:]
    tensors = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        arr = np.frombuffer(data[b:e], dtype=_DTYPES[info["dtype"]]).reshape(info["shape"])
        tensors[name] = arr.copy()
    return tensors, meta


def load_npz(path):
    z = np.load(path)
    meta = json.loads(bytes(z["__metadata__"]).decode()) if "__metadata__" in z.files else {}
    return {k: z[k] for k in z.files if k != "__metadata__"}, meta


def load_weights(path):
    return load_npz(path) if path.endswith(".npz") else load_safetensors(path)


def layer_kinds(meta):
    return [k for k in meta.get("layers", "").split(",") if k]


def _conv_exact(h, x, mode):
    """(h ∗ x) per channel, exactly; h and x are (N', d') object arrays (contract.md conv modes)."""
    n = x.shape[0]
    y = np.zeros_like(x)
    for i in range(n):
        if mode == "causal":
            ks = range(0, i + 1)
            y[i] = sum((h[k] * x[i - k] for k in ks), np.zeros(x.shape[1], dtype=object))
        elif mode == "cyclic":
            y[i] = sum((h[k] * x[(i - k) % n] for k in range(n)), np.zeros(x.shape[1], dtype=object))
        else:  # anticausal
            y[i] = sum((h[k] * x[i + k] for k in range(n - i)), np.zeros(x.shape[1], dtype=object))
    return y


def exact_forward(tensors, meta, u):
    """The model's exact output (object array of Python ints) on an N×d integer input."""
    N, d, iN, id_ = (int(meta[k]) for k in ("N", "d", "inner_N", "inner_d"))
    T = {k: v.astype(object) for k, v in tensors.items()}
    x = np.zeros((iN, id_), dtype=object)
    x[:N, :d] = np.asarray(u, dtype=object)
    for i, kind in enumerate(layer_kinds(meta)):
        p = f"layers.{i}."
        if kind == "baseconv":
            a = x.dot(T[p + "projection.weight"].T) + T[p + "projection.bias"]
            c = _conv_exact(T[p + "conv.filter"].T, x, meta["conv"]) + T[p + "conv.bias"]
            x = a * c
        elif kind == "mlp":
            z = x.dot(T[p + "fc1.weight"].T) + T[p + "fc1.bias"]
            z = np.where(z > 0, z, 0).astype(object)
            x = z.dot(T[p + "fc2.weight"].T) + T[p + "fc2.bias"]
        elif kind == "linear_attention":
            q, k, v = (x.dot(T[p + n].T) for n in ("q_proj.weight", "k_proj.weight", "v_proj.weight"))
            s = q.dot(k.T)
            x = np.tril(s).dot(v)
        else:
            raise ValueError(f"unknown layer kind {kind!r}")
    return x[:N, :d]


if torch is not None:
    import torch.nn as nn

    def fft_conv(u, k, mode):
        """zoology's fft_conv without its `+ u`: u (b, d, l), k (d, l) -> (b, d, l)."""
        l = u.shape[-1]
        if mode == "anticausal":  # (h ∗ u)[i] = Σ h[k] u[i+k]: the causal conv of the reversed input
            return fft_conv(u.flip(-1), k, "causal").flip(-1)
        if u.dtype in (torch.bfloat16, torch.float16) and not FFT32_FOR_BF16[0]:
            return direct_conv(u, k, mode)  # no bfloat16 FFT: a bfloat16 Toeplitz matmul instead
        n = l if mode == "cyclic" else 2 * l
        real = torch.float32 if u.dtype in (torch.bfloat16, torch.float16) else u.dtype  # bfloat16+fft32
        k_f = torch.fft.rfft(k.to(real), n=n) / n
        u_f = torch.fft.rfft(u.to(real), n=n)
        y = torch.fft.irfft(u_f * k_f, n=n, norm="forward")[..., :l]
        return y.to(u.dtype)

    FFT32_FOR_BF16 = [False]  # True: the `bfloat16+fft32` row (autocast's split of precisions)

    def direct_conv(u, k, mode):
        """(h ∗ u) as a matmul in u's dtype: u (b, d, l), k (d, l); T[c, i, j] = h[c, i−j] (causal),
        h[c, (i−j) mod l] (cyclic), h[c, j−i] (anticausal), zero elsewhere."""
        l = u.shape[-1]
        i, j = torch.arange(l).view(l, 1), torch.arange(l).view(1, l)
        if mode == "causal":
            idx, mask = (i - j).clamp(min=0), j <= i
        elif mode == "cyclic":
            idx, mask = (i - j) % l, torch.ones(l, l, dtype=torch.bool)
        else:
            idx, mask = (j - i).clamp(min=0), j >= i
        T = k.to(u.dtype)[:, idx] * mask.to(u.dtype)  # (d, l, l)
        return torch.einsum("cij,bcj->bci", T, u)

    class BaseConv(nn.Module):
        """y = (u Wᵀ + b1) ⊙ (h ∗ u + b2): zoology's BaseConv with the long (explicit) convolution,
        position-dependent biases, and no residual."""

        def __init__(self, inner_N, inner_d, mode):
            super().__init__()
            self.mode = mode
            self.projection = nn.Linear(inner_d, inner_d, bias=False)
            self.projection_bias = nn.Parameter(torch.zeros(inner_N, inner_d))
            self.filter = nn.Parameter(torch.zeros(inner_d, inner_N))
            self.conv_bias = nn.Parameter(torch.zeros(inner_N, inner_d))

        def forward(self, u):  # (b, l, d)
            u_proj = self.projection(u) + self.projection_bias
            u_conv = fft_conv(u.transpose(1, 2), self.filter, self.mode).transpose(1, 2) + self.conv_bias
            return u_proj * u_conv

    class Mlp(nn.Module):
        def __init__(self, inner_N, inner_d, hidden):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(inner_d, hidden, bias=False), nn.Linear(hidden, inner_d, bias=False)
            self.fc1_bias = nn.Parameter(torch.zeros(inner_N, hidden))
            self.fc2_bias = nn.Parameter(torch.zeros(inner_N, inner_d))

        def forward(self, u):
            return self.fc2(torch.relu(self.fc1(u) + self.fc1_bias)) + self.fc2_bias

    class LinearAttention(nn.Module):
        def __init__(self, inner_d, f):
            super().__init__()
            self.q_proj, self.k_proj = nn.Linear(inner_d, f, bias=False), nn.Linear(inner_d, f, bias=False)
            self.v_proj = nn.Linear(inner_d, inner_d, bias=False)

        def forward(self, u):
            s = self.q_proj(u) @ self.k_proj(u).transpose(1, 2)
            return torch.tril(s) @ self.v_proj(u)

    class Stack(nn.Module):
        """The whole model: embed the N×d input top-left in N'×d', run the layers, read N×d."""

        def __init__(self, tensors, meta, dtype=torch.float32):
            super().__init__()
            self.N, self.d, iN, id_ = (int(meta[k]) for k in ("N", "d", "inner_N", "inner_d"))
            self.inner = (iN, id_)
            layers, sd = [], {}
            for i, kind in enumerate(layer_kinds(meta)):
                p = f"layers.{i}."
                if kind == "baseconv":
                    layers.append(BaseConv(iN, id_, meta["conv"]))
                    sd.update({f"{i}.projection.weight": tensors[p + "projection.weight"],
                               f"{i}.projection_bias": tensors[p + "projection.bias"],
                               f"{i}.filter": tensors[p + "conv.filter"], f"{i}.conv_bias": tensors[p + "conv.bias"]})
                elif kind == "mlp":
                    layers.append(Mlp(iN, id_, tensors[p + "fc1.weight"].shape[0]))
                    sd.update({f"{i}.fc1.weight": tensors[p + "fc1.weight"], f"{i}.fc1_bias": tensors[p + "fc1.bias"],
                               f"{i}.fc2.weight": tensors[p + "fc2.weight"], f"{i}.fc2_bias": tensors[p + "fc2.bias"]})
                else:
                    layers.append(LinearAttention(id_, tensors[p + "q_proj.weight"].shape[0]))
                    for n in ("q_proj", "k_proj", "v_proj"):
                        sd[f"{i}.{n}.weight"] = tensors[p + n + ".weight"]
            self.layers = nn.Sequential(*layers)
            self.layers.load_state_dict({k: torch.tensor(np.asarray(v, dtype=np.float64)) for k, v in sd.items()},
                                        strict=True)
            self.to(dtype)

        def forward(self, u):  # (b, N, d)
            x = torch.zeros(u.shape[0], *self.inner, dtype=u.dtype)
            x[:, :self.N, :self.d] = u
            return self.layers(x)[:, :self.N, :self.d]


def float_errors(tensors, meta, inputs, dtypes=("float64", "float32", "bfloat16", "bfloat16+fft32")):
    """{dtype: (max abs error, max relative error, fraction of entries that round to a wrong integer)}
    (the precisions of the module docstring)."""
    exact = np.array([exact_forward(tensors, meta, u) for u in inputs], dtype=object)
    out = {}
    for name in dtypes:
        dt = getattr(torch, name.split("+")[0])
        FFT32_FOR_BF16[0] = name.endswith("+fft32")
        model = Stack(tensors, meta, dt)
        with torch.no_grad():
            y = model(torch.tensor(np.asarray(inputs, dtype=np.float64)).to(dt)).to(torch.float64).numpy()
        FFT32_FOR_BF16[0] = False
        err = np.abs(y - exact.astype(np.float64))
        rel = err / np.maximum(1.0, np.abs(exact.astype(np.float64)))
        wrong = np.rint(y).astype(object) != exact
        out[name] = (float(err.max()), float(rel.max()), float(np.mean(wrong)))
    return out


def sweep(cli, max_log2=14, bits=8, seed=0, dtype="float32"):
    """Per N = 2^4..2^max_log2, the fraction of outputs that float FFT convolution rounds to a wrong
    integer: (a) the exported primitive/cumsum model (all-ones filter), (b) one BaseConv layer whose
    filter is random `bits`-bit (a dense filter, as data-dependent MQAR kernels are)."""
    rng = np.random.default_rng(seed)
    dt = getattr(torch, dtype)
    rows, first = [], {"cumsum": None, "random filter": None}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(4, max_log2 + 1):
            n = 2 ** k
            path = os.path.join(tmp, f"cumsum{n}.safetensors")
            subprocess.run([cli, "export", "primitive/cumsum", "-p", f"N={n}", "-p", "d=1", "--format",
                            "safetensors", "-o", path], check=True, capture_output=True)
            tensors, meta = load_safetensors(path)
            u = rng.integers(0, 2 ** bits, size=(1, n, 1))
            exact = np.cumsum(u[0], axis=0)  # cumsum's exact output (fits int64)
            with torch.no_grad():
                y = Stack(tensors, meta, dt)(torch.tensor(u, dtype=torch.float64).to(dt)).to(torch.float64).numpy()[0]
            frac_a = float(np.mean(np.rint(y) != exact))
            h = rng.integers(0, 2 ** bits, size=n)
            exact_b = np.convolve(u[0, :, 0], h)[:n]  # exact in int64: below 2^(2 bits) * n
            with torch.no_grad():
                yb = fft_conv(torch.tensor(u[:, :, 0][:, None, :], dtype=dt), torch.tensor(h[None, :], dtype=dt),
                              "causal").to(torch.float64).numpy()[0, 0]
            frac_b = float(np.mean(np.rint(yb) != exact_b))
            rows.append((n, frac_a, frac_b))
            for key, frac in (("cumsum", frac_a), ("random filter", frac_b)):
                if frac > 0 and first[key] is None:
                    first[key] = n
    return rows, first


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights", nargs="?", help="a .safetensors or .npz file from `circuitzoo export`")
    ap.add_argument("--samples", type=int, default=16, help="random inputs for the error report")
    ap.add_argument("--range", type=int, default=1000,
                    help="inputs drawn from [-range, range] (default 1000; bfloat16 is exact on integers up to 256)")
    ap.add_argument("--sweep", action="store_true", help="the rounding sweep over N (needs --cli)")
    ap.add_argument("--cli", default="build/circuitzoo")
    ap.add_argument("--max-log2", type=int, default=14)
    a = ap.parse_args(argv)
    if torch is None:
        print("skipped: PyTorch is not installed (apt-get install python3-torch)", file=sys.stderr)
        return 77
    if a.weights:
        tensors, meta = load_weights(a.weights)
        rng = np.random.default_rng(1)
        inputs = rng.integers(-a.range, a.range + 1, size=(a.samples, int(meta["N"]), int(meta["d"])))
        print(f"{meta.get('construction', a.weights)}: {layer_kinds(meta)} conv={meta['conv']}, "
              f"{a.samples} inputs in [-{a.range}, {a.range}]")
        for name, (err, rel, wrong) in float_errors(tensors, meta, inputs).items():
            print(f"  {name:15s} max abs error {err:.3g}  max rel error {rel:.3g}  wrongly rounded {100 * wrong:.1f}%")
    if a.sweep:
        rows, first = sweep(a.cli, a.max_log2)
        print("  float32 FFT convolution, 8-bit inputs: outputs rounded to a wrong integer")
        print("       N   cumsum model   random 8-bit filter")
        for n, fa, fb in rows:
            print(f"  {n:6d}   {100 * fa:10.2f}%   {100 * fb:10.2f}%")
        for key, n in first.items():
            print(f"  first N where float32 changes an integer answer ({key}): {n}")
    if not a.weights and not a.sweep:
        ap.error("give WEIGHTS and/or --sweep")
    return 0


if __name__ == "__main__":
    sys.exit(main())
