#!/usr/bin/env python3
"""zoology's mixers, built and run by zoology's own code, imported into circuitzoo exactly (issue 28, item 5).

    PYTHONPATH=build/python /usr/bin/python3 examples/zoology_import.py --zoology DIR [--shims DIR] [--examples 64] [--mixers ...]

DIR is a plain checkout of https://github.com/HazyResearch/zoology (the folder holding its `zoology`
package). zoology's mixers import pydantic 2, einops and opt_einsum (H3); the installed ones are
used. Where one is missing the script says so on stderr and stands in for it: pydantic 2's
`validate_call` (which only checks constructor argument types) becomes a no-op; einops and
opt_einsum must be installed (`pip install einops opt_einsum`) or given as stand-in packages in
`--shims DIR` (a folder holding `einops/` and `opt_einsum/`), else the script stops and names the
package to install (exit 2).

For each mixer (BaseConv with its short and its implicit long convolution, Hyena, H3, RWKV-4 time
mixing) at N = 64, d = 16 in float64 with seeded random weights:
  1. circuitzoo.torch.import_zoology (import_rwkv for RWKV) turns the module into model-json over Q,
     every float as its exact dyadic value; circuitzoo.eval evaluates it exactly on the same input;
     the report gives max|zoology − exact| / max|exact| (the test requires < 1e-9).
  2. MQAR answers: zoology's MQAR batches (circuitzoo.mqar_data, vocab 128, 8 pairs), tokens embedded
     by a seeded float32 table E (V×d), the answer at each query position = argmax of y·Rᵀ with a
     second seeded table R (an untied read-out: with zoology's tied lm_head, y·Eᵀ, BaseConv's residual
     makes the query token itself win by a wide margin and nothing changes). Counted: answers a reduced-precision forward changes against
     the exact one, and whether every change is at a position whose exact margin (top-1 − top-2
     logit) is within that forward's own logit error (soundness: a forward cannot change an answer
     that its error cannot reach).
Precisions: `float32` is zoology's module in float32 (its FFTs in float32); `bf16 autocast` is zoology's
module under torch.autocast("cpu", bfloat16), which is what mixed-precision training runs: Linear
layers in bfloat16, the FFT convolutions in float32; `bf16 circuitzoo` is circuitzoo.torch's module of the
imported model with every weight, input and op output in bfloat16, convolutions as bfloat16 Toeplitz
matmuls (CPU matmul accumulates in float32 inside one product, as tensor cores do).
zoology's H3 computes its SSM kernels in float32 whatever the module's dtype (ss_kernel_*.py cast with
.float()): the float64 run here widens those kernels to float64 before its FFTs, and the import takes
the same kernel values. RWKV: zoology's rwkv.py compiles a CUDA WKV kernel at import; here its
RUN_CUDA is replaced by kernel_forward of rwkv/v4/wkv_cuda.cu written out in torch (float64 for a
float64 input, float32 otherwise, as the kernel's F = float; the result cast back as zoology's WKV does).
"""
import argparse
import os
import sys
import time
import types
from fractions import Fraction

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_peers():
    return os.environ.get("CZ_PEERS") or os.path.join(os.path.dirname(ROOT), "shared", "peers")


class ZoologyMissing(Exception):
    """No zoology checkout where given, or one of its requirements missing without a stand-in."""


def _stand_in_validate_call():
    """pydantic 2's validate_call, or a no-op stand-in where pydantic 1 (Debian 12) or none is installed.
    Returns a note saying which, or None when the real one is there."""
    try:
        from pydantic import validate_call  # noqa: F401
        return None
    except ImportError:
        pass
    try:
        import pydantic
        found = f"pydantic {getattr(pydantic, 'VERSION', '?')}"
    except ImportError:
        pydantic = types.ModuleType("pydantic")
        sys.modules["pydantic"] = pydantic
        found = "none"

    def validate_call(func=None, **_):
        return func if func is not None else (lambda f: f)
    pydantic.validate_call = validate_call
    return (f"pydantic 2 is not installed (found: {found}): zoology's @validate_call, which only checks "
            f"argument types, is a no-op here")


def _stand_ins(modules, shims):
    """Import each module as installed; the missing ones (all found missing before the stand-ins' folder
    joins sys.path) from `shims`. Notes for the stand-ins used."""
    import importlib.util
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    notes = []
    for m in missing:
        if not (shims and os.path.isdir(os.path.join(shims, m))):
            raise ZoologyMissing(f"zoology's mixers need {m}, which is not installed (pip install {m}; "
                                 f"or give --shims DIR with a stand-in {m}/ package)")
        notes.append(f"{m} is not installed: using the stand-in {os.path.join(shims, m)}")
    if missing and shims not in sys.path:
        sys.path.append(shims)  # after everything installed: a real package always wins
    for m in modules:
        __import__(m)
    return notes


def load_zoology(checkout, shims=None, log=None):
    """zoology's mixer classes from a plain checkout of HazyResearch/zoology (the folder holding the
    `zoology` package). Its requirements are imported as installed first; a missing one is stood in
    for (see the top of this file) and `log` (default: stderr) gets one note per stand-in."""
    if log is None:
        log = lambda msg: print(f"note: {msg}", file=sys.stderr)  # noqa: E731
    checkout = os.path.abspath(checkout)
    if not os.path.isfile(os.path.join(checkout, "zoology", "mixers", "base_conv.py")):
        raise ZoologyMissing(f"no zoology checkout at {checkout} (want {checkout}/zoology/mixers/base_conv.py: "
                             f"git clone https://github.com/HazyResearch/zoology, then --zoology DIR)")
    if checkout not in sys.path:
        sys.path.insert(0, checkout)
    notes = _stand_ins(("einops", "opt_einsum"), shims)  # may stop: before anything is patched
    notes.insert(0, _stand_in_validate_call())
    for n in filter(None, notes):
        log(n)
    import torch.utils.cpp_extension as ce
    from zoology.mixers.base_conv import BaseConv
    from zoology.mixers.h3 import H3
    from zoology.mixers.hyena import Hyena
    real = ce.load
    ce.load = lambda *a, **k: types.SimpleNamespace()  # rwkv.py builds its CUDA kernel at import
    try:
        import zoology.mixers.rwkv as rwkv
    finally:
        ce.load = real
    rwkv.RUN_CUDA = wkv_v4
    return {"BaseConv": BaseConv, "Hyena": Hyena, "H3": H3, "RWKV": rwkv.RWKVTimeMixer}


def zoology(peers):
    """load_zoology for this project's tests: PEERS/zoology (the pinned checkout), PEERS/shims."""
    return load_zoology(os.path.join(peers, "zoology"), os.path.join(peers, "shims"))


def wkv_v4(B, T, C, w, u, k, v):
    """kernel_forward of zoology/mixers/rwkv/v4/wkv_cuda.cu (p, q running sums scaled by e^o)."""
    dt_in = k.dtype
    dt = torch.float64 if k.dtype == torch.float64 else torch.float32
    w, u, k, v = (-torch.exp(w.to(dt)), u.to(dt), k.to(dt), v.to(dt))
    y = torch.empty(B, T, C, dtype=dt)
    p, q = torch.zeros(B, C, dtype=dt), torch.zeros(B, C, dtype=dt)
    o = torch.full((B, C), -1e38, dtype=dt)
    for i in range(T):
        kk, vv = k[:, i], v[:, i]
        no = torch.maximum(o, u + kk)
        a, b = torch.exp(o - no), torch.exp(u + kk - no)
        y[:, i] = (a * p + b * vv) / (a * q + b)
        no = torch.maximum(w + o, kk)
        a, b = torch.exp(w + o - no), torch.exp(kk - no)
        p, q, o = a * p + b * vv, a * q + b, no
    return y.to(dt_in)


def _widen_kernels(h3):
    """zoology's H3 kernels come out float32 (its code casts); widen them so its forward runs float64."""
    for sub in (h3.kernel, h3.ssm_k_kernel):
        f = sub.forward
        sub.forward = (lambda f: lambda *a, **kw: tuple(x.double() if torch.is_tensor(x) else x for x in f(*a, **kw)))(f)
    return h3


DEFAULT_MIXERS = ("BaseConv short", "BaseConv long", "Hyena", "H3", "RWKV")
MIXERS = DEFAULT_MIXERS + ("Hyena num_blocks=2", "Hyena num_blocks=4", "H3 head_dim=2")


def check_mixer_names(names):
    """ValueError naming the unknown ones and the known ones."""
    bad = [n for n in names if n not in MIXERS]
    if bad:
        raise ValueError(f"unknown mixer{'s' if len(bad) > 1 else ''} {', '.join(map(repr, bad))}; "
                         f"known: {', '.join(MIXERS)}")


def build_mixers(Z, N=64, d=16, seed=0, names=None):
    """Seeded zoology mixers in float64, eval mode; weights randn-scaled so outputs are O(1).
    names: which (default DEFAULT_MIXERS; the num_blocks / head_dim variants only when named)."""
    if names:
        check_mixer_names(names)
    torch.manual_seed(seed)
    prev = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        makers = {
            "BaseConv short": lambda: Z["BaseConv"](d, N, kernel_size=3),
            "BaseConv long": lambda: Z["BaseConv"](d, N, kernel_size=-1),
            "Hyena": lambda: Z["Hyena"](d, N),
            "H3": lambda: _widen_kernels(Z["H3"](d, d_state=64, l_max=N)),
            "RWKV": lambda: Z["RWKV"](l_max=N, d_model=d, n_layer=2, layer_idx=1),
            # built only when named (tests, --mixers): zoology's other shapes that import exactly
            "Hyena num_blocks=2": lambda: Z["Hyena"](d, N, num_blocks=2),
            "Hyena num_blocks=4": lambda: Z["Hyena"](d, N, num_blocks=4),
            "H3 head_dim=2": lambda: _widen_kernels(Z["H3"](d, d_state=64, l_max=N, head_dim=2)),
        }
        out = {}
        for name, make in makers.items():
            if (names and name not in names) or (not names and name not in DEFAULT_MIXERS):
                continue
            m = make().eval()
            if name == "RWKV":  # zoology's init zeroes key/receptance/output only through init_rwkv: randomise
                with torch.no_grad():
                    for lin in (m.key, m.value, m.receptance, m.output):
                        lin.weight.normal_(0, d ** -0.5)
            out[name] = m
        return out
    finally:
        torch.set_default_dtype(prev)


class Imported:
    """A zoology mixer imported exactly; exact(u) is circuitzoo.eval's output as float64 (and Fractions)."""

    def __init__(self, name, module, N, czt, cz):
        self.name, self.module, self.N, self.czt, self.cz = name, module, N, czt, cz
        t = time.time()
        if name == "RWKV":
            self.rwkv = czt.import_rwkv(module, N)
            self.model_json = None
        else:
            self.model_json = czt.import_zoology(module, N)
        self.import_seconds = time.time() - t

    def exact(self, u):
        """(float64 array, exact rows or None) of one (N, d) input."""
        if self.model_json is None:
            y, _ = self.czt.rwkv_forward(self.rwkv, u, self.cz.eval)
            return y, None
        out = self.cz.eval(self.model_json, self.czt.exact_input(u))
        rows = [[x if isinstance(x, Fraction) else Fraction(int(x)) for x in r] for r in out]
        return np.array([[float(x) for x in r] for r in rows]), rows


def agreement(imp, u):
    """max|zoology float64 − exact| / max|exact| on a (b, N, d) float64 input."""
    with torch.no_grad():
        z = imp.module(u).double().numpy()
    worst = 0.0
    for b in range(u.shape[0]):
        e, _ = imp.exact(u[b])
        worst = max(worst, float(np.abs(z[b] - e).max() / max(np.abs(e).max(), 1e-300)))
    return worst


def forwards(imp, x, czt):
    """{precision: (b, N, d) float64 outputs} of the reduced-precision forwards named in the docstring."""
    out = {}
    m = imp.module
    with torch.no_grad():
        out["float64"] = m(x.double()).double()
        m32 = _copy_to(m, torch.float32)
        out["float32"] = m32(x.float()).double()
        if imp.name != "RWKV":
            with torch.autocast("cpu", dtype=torch.bfloat16):
                out["bf16 autocast"] = m32(x.float()).double()
            ours = czt.from_model_json(imp.model_json, dtype=torch.bfloat16)
            out["bf16 circuitzoo"] = ours(x.bfloat16()).double()
        else:  # zoology's default RWKV_FLOAT_MODE=bf16: module in bfloat16, WKV in float32
            out["bf16"] = _copy_to(m, torch.bfloat16)(x.bfloat16()).double()
    return out


def _copy_to(m, dtype):
    import copy
    if type(m).__name__ == "RWKVTimeMixer":  # a ScriptModule: no deepcopy; a fresh one with the weights
        c = type(m)(l_max=m.ctx_len, d_model=m.d_model, n_layer=2, layer_idx=m.layer_id)
        c.load_state_dict(m.state_dict())
        return c.to(dtype)
    c = copy.deepcopy(m).to(dtype)
    if type(m).__name__ == "H3":  # the widening wrapper converts to float64: re-wrap to the new dtype
        for sub, orig in ((c.kernel, m.kernel), (c.ssm_k_kernel, m.ssm_k_kernel)):
            f = type(sub).forward.__get__(sub)
            sub.forward = (lambda f: lambda *a, **kw: tuple(t.to(dtype) if torch.is_tensor(t) else t for t in f(*a, **kw)))(f)
    return c


def mqar_flips(imp, czt, cz, examples=16, vocab=128, kv=8, seed=0):
    """{precision: (changed answers, answers, every change within the forward's error)}."""
    N, d = imp.N, 16
    inputs, labels = cz.mqar_data(vocab=vocab, seq_len=N, kv=kv, examples=examples, seed=seed)
    g = torch.Generator().manual_seed(seed + 1)
    E = (torch.randn(vocab, d, generator=g) / d ** 0.5).float().double()  # float32 values, exact in float64
    # An untied read-out: with zoology's tied one (logits = y·Eᵀ) the residual `+ u` of BaseConv makes
    # the query token itself win by a wide margin, and no precision changes anything.
    R = (torch.randn(vocab, d, generator=g) / d ** 0.5).float().double()
    Ef = [[Fraction(float(x)) for x in r] for r in R.numpy()]
    x = E[torch.from_numpy(inputs)]  # (examples, N, d)
    outs = forwards(imp, x, czt)
    res = {k: [0, 0, True] for k in outs}
    for b in range(examples):
        pos = np.nonzero(labels[b] != -100)[0]
        ey, rows = imp.exact(x[b])
        for p in pos:
            if rows is not None:  # exact logits over Q
                logits = [sum(rows[p][c] * Ef[t][c] for c in range(d)) for t in range(vocab)]
            else:  # RWKV: float64 glue around the exact parts
                logits = list(R.numpy() @ ey[p])
            order = sorted(range(vocab), key=lambda t: logits[t], reverse=True)
            best, margin = order[0], float(logits[order[0]] - logits[order[1]])
            ex_logits = np.array([float(v) for v in logits])
            for k, y in outs.items():
                fl = R.numpy() @ y[b, p].numpy()
                err = float(np.abs(fl - ex_logits).max())
                res[k][1] += 1
                if int(np.argmax(fl)) != best:
                    res[k][0] += 1
                    res[k][2] = res[k][2] and margin <= 2 * err
    return {k: tuple(v) for k, v in res.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    peers = default_peers()
    ap.add_argument("--zoology", help="a checkout of HazyResearch/zoology (the folder holding its zoology package); "
                                      "default $CZ_ZOOLOGY, else PEERS/zoology")
    ap.add_argument("--shims", help="stand-ins for zoology's requirements that are not installed (einops/, "
                                    "opt_einsum/), used only for those; default PEERS/shims when it exists")
    ap.add_argument("--peers", default=peers, help=f"PEERS: this project's folder of peer code, zoology/ and "
                                                   f"shims/ (default $CZ_PEERS, else {peers})")
    ap.add_argument("--examples", type=int, default=64, help="MQAR examples per mixer (8 answers each)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mixers", default=",".join(DEFAULT_MIXERS),
                    help=f"comma-separated, from: {', '.join(MIXERS)} (default: the first {len(DEFAULT_MIXERS)})")
    a = ap.parse_args(argv)
    names = [n.strip() for n in a.mixers.split(",") if n.strip()]
    try:
        check_mixer_names(names or [""])
    except ValueError as e:
        print(f"error: {e} (--mixers)", file=sys.stderr)
        return 2
    checkout = a.zoology or os.environ.get("CZ_ZOOLOGY") or os.path.join(a.peers, "zoology")
    shims = a.shims or (os.path.join(a.peers, "shims") if os.path.isdir(os.path.join(a.peers, "shims")) else None)
    try:
        import circuitzoo as cz
    except ImportError:  # run from a checkout: the module in build/python
        sys.path.insert(0, os.path.join(ROOT, "build", "python"))
        import circuitzoo as cz
    import circuitzoo.torch as czt
    try:
        Z = load_zoology(checkout, shims)
    except ZoologyMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    N = 64
    for name, m in build_mixers(Z, N=N, seed=a.seed, names=names).items():
        imp = Imported(name, m, N, czt, cz)
        u = torch.randn(2, N, 16, generator=torch.Generator().manual_seed(a.seed), dtype=torch.float64)
        t = time.time()
        rel = agreement(imp, u)
        layers = len(imp.model_json["layers"]) if imp.model_json else "kvr 3 + wkv 1"
        print(f"{name:15s} layers {layers}  float64 vs exact: {rel:.2e}  ({time.time() - t:.1f} s)")
        for k, (changed, total, sound) in mqar_flips(imp, czt, cz, a.examples, seed=a.seed).items():
            print(f"    {k:16s} changes {changed:4d} of {total} MQAR answers ({100 * changed / total:.1f}%)"
                  f"{'' if sound else '  UNSOUND: a change beyond the error'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
