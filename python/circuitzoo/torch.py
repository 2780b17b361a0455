"""circuitzoo's layer kinds as PyTorch modules, and zoology's mixers as exact circuitzoo models.

    import circuitzoo.torch as czt
    m = czt.load("w.safetensors")          # or .npz, or a model-json file; an nn.Module, float64
    y = m(u)                                # u: (batch, N, d) -> (batch, N, d); no autograd graph:
                                            # load() and from_model_json() give requires_grad=False
                                            # parameters (m.requires_grad_(True) to train)
    m.load_state_dict(czt.read_tensors("w.npz")[0])   # our export's names are this module's names

Semantics (the C++ evaluator's, src/model/eval.h; contract.md model-json), layer by layer on the
N'×d' inner state (the N×d input embedded top-left, zeros elsewhere; the output read top-left):
    baseconv          y = (x·W + b1) ⊙ (h ∗ x + b2)          biases per position (N'×d'), NO residual
    mlp               y = relu(x·W1 + B1)·W2 + B2
    linear_attention  y[t] = Σ_{s≤t} <(x·Wq)[t], (x·Wk)[s]> (x·Wv)[s]
with ∗ per channel along the sequence in the model's mode (src/tensor/conv_mode.h):
    causal     (h∗x)[i] = Σ_{k≤i} h[k] x[i−k]
    cyclic     (h∗x)[i] = Σ_k h[k] x[(i−k) mod N']
    anticausal (h∗x)[i] = Σ_{k≤N'−1−i} h[k] x[i+k]
State-dict names extend zoology's BaseConv (zoology/mixers/base_conv.py): `layers.{i}.projection.weight`
(Wᵀ, nn.Linear's [out, in]), `layers.{i}.projection.bias` (b1, per position), `layers.{i}.conv.filter`
(hᵀ, (d', N') like zoology's LongConvolution.filter), `layers.{i}.conv.bias` (b2, which zoology lacks);
`fc1/fc2` for MLP, `q_proj/k_proj/v_proj` for linear attention: exactly `export --format npz|safetensors`.

Convolution: `conv_impl="fft"` (zero-padded FFT, as zoology's fft_conv), `"direct"` (a Toeplitz
matmul in the module's own dtype, so a bfloat16 module convolves in bfloat16), or `"auto"` (FFT for
float32/float64, direct otherwise; torch has no bfloat16 FFT).

zoology interop (zoology itself is not a dependency: its classes are passed in):
  * ZoologyStack(source, zoology_BaseConv): our model in zoology's own BaseConv modules, where they
    can hold it (causal, conv.bias 0, b1 the same on every row, baseconv layers only); zoology's layer
    is conv(u)⊙(u Wᵀ + b) + u with conv(u) = h∗u + u, so filter[:, 0] is stored minus 1 and the
    residual is subtracted after EVERY layer (x ← layer(x) − x), not once at the end.
  * import_zoology(module, seq_len): zoology's BaseConv, Hyena or H3 mixer as a model-json (ring Q),
    every float converted exactly to a dyadic rational p/2^k; implicit filters and SSM kernels are
    materialised at seq_len by the module's own code (float64, except H3's SSM kernels, which
    zoology's ss_kernel_*.py compute in float32 whatever the module's dtype: taken as computed).
    Hyena with num_blocks > 1 becomes a cyclic model on N + N/num_blocks − 1 rows (same 3d channels),
    H3 with head_dim e > 1 widens to 3·d·e channels (one per (head, i, j) product); Hyena with
    num_heads > 1 or bidirectional=True is refused: zoology's own forward raises for both.
    import_rwkv: RWKV-4 time mixing as two exact models around the non-polynomial steps (exp, the
    WKV ratio, sigmoid).
"""
import copy as _copy
import json as _json
import struct as _struct
from fractions import Fraction as _F

import numpy as _np
import torch as _torch
from torch import nn as _nn

from circuitzoo import _core

# Architecture layers (model-json "Architecture layers"): the module runs their BaseConv expansion,
# which the core computes exactly as `eval --model` does.
_ARCH_KINDS = ("hyena", "h3", "retnet", "rwkv")

__all__ = ["Model", "BaseConv", "Mlp", "LinearAttention", "Conv", "Projection", "load", "read_tensors",
           "from_model_json", "ZoologyStack", "zoology_state_dicts", "import_zoology", "import_rwkv",
           "rwkv_forward", "dyadic", "save_model_json", "exact_input", "to_model_json"]

# ---------------------------------------------------------------------------------------------
# The layer kinds


class Projection(_nn.Module):
    """x·W + b with weight = Wᵀ ([out, in], nn.Linear's layout) and a bias per position (rows, out)."""

    def __init__(self, d_in, d_out, rows, bias=True):
        super().__init__()
        self.weight = _nn.Parameter(_torch.zeros(d_out, d_in))
        self.bias = _nn.Parameter(_torch.zeros(rows, d_out)) if bias else None

    def forward(self, x):
        y = x @ self.weight.T
        return y if self.bias is None else y + self.bias


def _toeplitz(h, n, mode):
    """(c, n, n) matrices T with (h∗x)[i] = Σ_j T[i, j] x[j] per channel; h is (c, n)."""
    i = _torch.arange(n).view(n, 1)
    j = _torch.arange(n).view(1, n)
    if mode == "causal":
        idx, mask = (i - j).clamp(min=0), j <= i
    elif mode == "cyclic":
        idx, mask = (i - j) % n, _torch.ones(n, n, dtype=_torch.bool)
    else:  # anticausal
        idx, mask = (j - i).clamp(min=0), j >= i
    return h[:, idx] * mask.to(h.dtype)


def _fft_conv(x, h, mode):
    """x (b, c, n), h (c, n): zoology's fft_conv without its `+ u`, in the three modes."""
    n = x.shape[-1]
    if mode == "anticausal":  # Σ_k h[k] x[i+k]: the causal conv of the reversed input, reversed
        return _fft_conv(x.flip(-1), h, "causal").flip(-1)
    size = n if mode == "cyclic" else 2 * n
    y = _torch.fft.irfft(_torch.fft.rfft(x, n=size) * _torch.fft.rfft(h, n=size), n=size)[..., :n]
    return y


class Conv(_nn.Module):
    """h ∗ x + b per channel; filter = hᵀ (c, n) as zoology's LongConvolution.filter, bias (n, c)."""

    def __init__(self, channels, n, mode, impl="auto"):
        super().__init__()
        if mode not in ("causal", "cyclic", "anticausal"):
            raise ValueError(f"unknown conv mode {mode!r} (want causal, cyclic or anticausal)")
        self.mode, self.impl = mode, impl
        self.filter = _nn.Parameter(_torch.zeros(channels, n))
        self.bias = _nn.Parameter(_torch.zeros(n, channels))

    def forward(self, x):  # (b, n, c)
        impl = self.impl
        if impl == "auto":
            impl = "fft" if x.dtype in (_torch.float32, _torch.float64) else "direct"
        if impl == "fft":
            y = _fft_conv(x.transpose(1, 2), self.filter, self.mode).transpose(1, 2)
        elif impl == "direct":
            y = _torch.einsum("cij,bjc->bic", _toeplitz(self.filter, x.shape[1], self.mode), x)
        else:
            raise ValueError(f"unknown conv_impl {impl!r} (want auto, fft or direct)")
        return y + self.bias


class BaseConv(_nn.Module):
    """y = (x·W + b1) ⊙ (h ∗ x + b2) (JRT Def G.1), no residual."""

    def __init__(self, n, d, mode, impl="auto"):
        super().__init__()
        self.projection = Projection(d, d, n)
        self.conv = Conv(d, n, mode, impl)

    def forward(self, x):
        return self.projection(x) * self.conv(x)


class Mlp(_nn.Module):
    """y = relu(x·W1 + B1)·W2 + B2 (JRT Def G.3)."""

    def __init__(self, n, d, hidden):
        super().__init__()
        self.fc1, self.fc2 = Projection(d, hidden, n), Projection(hidden, d, n)

    def forward(self, x):
        return self.fc2(_torch.relu(self.fc1(x)))


class LinearAttention(_nn.Module):
    """y[t] = Σ_{s≤t} <q[t], k[s]> v[s], unnormalised (JRT Def G.16)."""

    def __init__(self, n, d, f):
        super().__init__()
        self.q_proj, self.k_proj = Projection(d, f, n, bias=False), Projection(d, f, n, bias=False)
        self.v_proj = Projection(d, d, n, bias=False)

    def forward(self, x):
        s = self.q_proj(x) @ self.k_proj(x).transpose(1, 2)
        return _torch.tril(s) @ self.v_proj(x)


class Model(_nn.Module):
    """The (N, L, d, N', d') model: embed (b, N, d) top-left in (b, N', d'), run the layers, read N×d."""

    def __init__(self, N, d, inner_N, inner_d, conv, kinds, widths=None, ring="Z", conv_impl="auto"):
        super().__init__()
        self.N, self.d, self.inner_N, self.inner_d, self.conv, self.ring = N, d, inner_N, inner_d, conv, ring
        widths = widths or [None] * len(kinds)
        layers = []
        for kind, w in zip(kinds, widths):
            if kind == "baseconv":
                layers.append(BaseConv(inner_N, inner_d, conv, conv_impl))
            elif kind == "mlp":
                layers.append(Mlp(inner_N, inner_d, w))
            elif kind == "linear_attention":
                layers.append(LinearAttention(inner_N, inner_d, w))
            else:
                raise ValueError(f"unknown layer kind {kind!r} (want baseconv, mlp or linear_attention)")
        self.layers = _nn.ModuleList(layers)

    def forward(self, u):
        squeeze = u.dim() == 2
        if squeeze:
            u = u.unsqueeze(0)
        if tuple(u.shape[1:]) != (self.N, self.d):
            raise ValueError(f"input is {tuple(u.shape)}, the model takes (batch, {self.N}, {self.d})")
        x = u.new_zeros(u.shape[0], self.inner_N, self.inner_d)
        x[:, :self.N, :self.d] = u
        for layer in self.layers:
            x = layer(x)
        y = x[:, :self.N, :self.d]
        return y[0] if squeeze else y


# ---------------------------------------------------------------------------------------------
# Files: npz / safetensors (`circuitzoo export`), model-json

_ST_DTYPES = {"I64": "<i8", "I32": "<i4", "F32": "<f4", "F64": "<f8", "U8": "u1", "I8": "i1"}


def read_tensors(path):
    """(state_dict of torch tensors as stored, metadata dict) of a .npz or .safetensors export."""
    if str(path).endswith(".npz"):
        z = _np.load(path)
        meta = _json.loads(bytes(z["__metadata__"]).decode()) if "__metadata__" in z.files else {}
        arrays = {k: z[k] for k in z.files if k != "__metadata__"}
    else:
        with open(path, "rb") as f:
            raw = f.read()
        if len(raw) < 8:
            raise ValueError(f"not a safetensors file (too short) ({path})")
        (n,) = _struct.unpack("<Q", raw[:8])
        header = _json.loads(raw[8:8 + n])
        meta = header.pop("__metadata__", {})
        data = memoryview(raw)[8 + n:]
        arrays = {}
        for name, info in header.items():
            b, e = info["data_offsets"]
            arrays[name] = _np.frombuffer(data[b:e], dtype=_ST_DTYPES[info["dtype"]]).reshape(info["shape"]).copy()
    if meta.get("format") != "circuitzoo.weights/1":
        raise ValueError(f"not a circuitzoo weights file (metadata format {meta.get('format')!r}) ({path})")
    return {k: _torch.from_numpy(v) for k, v in arrays.items()}, meta


def _skeleton(meta, shapes, dtype, conv_impl):
    kinds = [k for k in meta.get("layers", "").split(",") if k]
    widths = []
    for i, k in enumerate(kinds):
        if k == "mlp":
            widths.append(shapes[f"layers.{i}.fc1.weight"][0])
        elif k == "linear_attention":
            widths.append(shapes[f"layers.{i}.q_proj.weight"][0])
        else:
            widths.append(None)
    if not meta.get("ring", "Z") in ("Z", "Q"):
        raise ValueError(f"ring {meta['ring']}: floating point cannot run modular arithmetic (want Z or Q)")
    m = Model(*(int(meta[k]) for k in ("N", "d", "inner_N", "inner_d")), meta["conv"], kinds, widths,
              meta.get("ring", "Z"), conv_impl)
    # A loaded model is for checking (issue 49 item 19): no parameter asks for gradients, so m(u)
    # builds no autograd graph (no grad_fn, no memory kept for backward). m.requires_grad_(True) trains it.
    return m.to(dtype).requires_grad_(False).eval()


def _frac(x):
    return _F(x) if isinstance(x, str) else _F(int(x)) if isinstance(x, int) else _F(x)


def _mat(rows, transpose=False):
    a = _torch.tensor([[float(_frac(x)) for x in r] for r in rows], dtype=_torch.float64)
    return a.T.contiguous() if transpose else a


def from_model_json(mj, dtype=_torch.float64, conv_impl="auto"):
    """An nn.Module of a model-json dict, or of circuitzoo.build(...)["model"] (numpy matrices); exact
    entries are rounded to the nearest float. Architecture layers (hyena, h3, retnet, rwkv) become the
    BaseConv layers of their exact simulation (as the CLI runs them).

    >>> m = czt.from_model_json(cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"], conv_impl="direct")
    >>> m(torch.ones(4, 1, dtype=torch.float64)).ravel().tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    if any(isinstance(L, dict) and L.get("kind") in _ARCH_KINDS for L in mj["layers"]):
        mj = _json.loads(_core.expanded_model_json(_json.dumps(mj)))
    sd, kinds = {}, []
    for i, L in enumerate(mj["layers"]):
        p, kind = f"layers.{i}.", L["kind"]
        kinds.append(kind)
        if kind == "baseconv":
            if isinstance(L["W"], dict):
                raise ValueError(f"layers[{i}].W is a K-matrix: export the model with dense W (layers[{i}].W)")
            sd.update({p + "projection.weight": _mat(L["W"], True), p + "projection.bias": _mat(L["b1"]),
                       p + "conv.filter": _mat(L["h"], True), p + "conv.bias": _mat(L["b2"])})
        elif kind == "mlp":
            sd.update({p + "fc1.weight": _mat(L["W1"], True), p + "fc1.bias": _mat(L["B1"]),
                       p + "fc2.weight": _mat(L["W2"], True), p + "fc2.bias": _mat(L["B2"])})
        elif kind == "linear_attention":
            for n, f in (("q_proj", "Wq"), ("k_proj", "Wk"), ("v_proj", "Wv")):
                sd[p + n + ".weight"] = _mat(L[f], True)
        else:
            raise ValueError(f"unknown layer kind {kind!r} (layers[{i}].kind)")
    meta = {k: str(mj[k]) for k in ("N", "d", "inner_N", "inner_d", "conv")}
    meta.update(ring=mj.get("ring", "Z"), layers=",".join(kinds))
    m = _skeleton(meta, {k: tuple(v.shape) for k, v in sd.items()}, dtype, conv_impl)
    m.load_state_dict(sd, strict=True)
    return m


def _exact_rows(t, what, transpose=False):
    a = t.detach().cpu().double().numpy() if isinstance(t, _torch.Tensor) else _np.asarray(t, dtype=_np.float64)
    if a.ndim != 2:
        raise ValueError(f"{what}: want a matrix, got shape {a.shape}")
    if not _np.isfinite(a).all():
        raise ValueError(f"{what}: not finite (NaN or inf has no exact value)")
    if transpose:
        a = a.T
    return [[dyadic(x) for x in r] for r in a]


def to_model_json(module, seq_len=None):
    """A torch module as a model-json dict, exactly: every float weight is a dyadic
    rational p/2^k and is written as that value (`dyadic`), so integer and dyadic weights come out
    exactly; the ring is Z when every weight is an integer, else Q. Then `circuitzoo.verify(model=...,
    task="hyena", operator=..., method="algebra")` proves it. Accepted:
      * circuitzoo.torch.Model (a stack of BaseConv / Mlp / LinearAttention layers; load() or
        from_model_json() give one): its own layout, layer by layer (the inverse of from_model_json);
      * a zoology BaseConv mixer, or a stack of them (nn.Sequential, nn.ModuleList, list or tuple),
        applied one after another: each as import_zoology(mixer, seq_len) writes it (two causal
        BaseConv layers on 2d channels, zoology's residual included), concatenated (each leaves the
        state zero beyond its d output columns, so the stack is the layers in order).
    The module's float computation is not what is verified: the model-json is the exact map its
    weights define (rounding in torch's own forward is not modelled).

    >>> m = czt.from_model_json(cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"])
    >>> mj = czt.to_model_json(m)
    >>> mj["ring"], mj["layers"][0]["h"]
    ('Z', [[1], [1], [1], [1]])
    """
    if isinstance(module, Model):
        layers = []
        for i, L in enumerate(module.layers):
            w = f"layers.{i}"
            if isinstance(L, BaseConv):
                layers.append({"kind": "baseconv", "W": _exact_rows(L.projection.weight, w + ".projection.weight", True),
                               "b1": _exact_rows(L.projection.bias, w + ".projection.bias"),
                               "h": _exact_rows(L.conv.filter, w + ".conv.filter", True),
                               "b2": _exact_rows(L.conv.bias, w + ".conv.bias")})
            elif isinstance(L, Mlp):
                layers.append({"kind": "mlp", "W1": _exact_rows(L.fc1.weight, w + ".fc1.weight", True),
                               "B1": _exact_rows(L.fc1.bias, w + ".fc1.bias"), "W2": _exact_rows(L.fc2.weight, w + ".fc2.weight", True),
                               "B2": _exact_rows(L.fc2.bias, w + ".fc2.bias")})
            elif isinstance(L, LinearAttention):
                layers.append({"kind": "linear_attention", **{f: _exact_rows(getattr(L, n).weight, f"{w}.{n}.weight", True)
                                                               for n, f in (("q_proj", "Wq"), ("k_proj", "Wk"), ("v_proj", "Wv"))}})
            else:
                raise ValueError(f"{w}: unknown layer {type(L).__name__}")
        mj = {"format": "circuitzoo.model/1", "N": module.N, "d": module.d, "inner_N": module.inner_N,
              "inner_d": module.inner_d, "conv": module.conv, "layers": layers}
    else:
        mixers = list(module) if isinstance(module, (_nn.Sequential, _nn.ModuleList, list, tuple)) else [module]
        if not mixers:
            raise ValueError("an empty stack has no model")
        if seq_len is None:
            raise ValueError("seq_len is needed for zoology mixers (their filters are materialised at it)")
        parts = [import_zoology(m, seq_len) for m in mixers]
        mj = dict(parts[0], layers=[L for p in parts for L in p["layers"]])
        if any((p["inner_d"], p["d"], p["conv"]) != (mj["inner_d"], mj["d"], mj["conv"]) for p in parts):
            raise ValueError("the stack's mixers have different widths or conv modes: not one model")
    entries = [x for L in mj["layers"] for k, v in L.items() if k != "kind" for r in v for x in r]
    mj["ring"] = "Z" if all(isinstance(x, int) or (isinstance(x, str) and "/" not in x) for x in entries) else "Q"
    return mj


def load(path, dtype=_torch.float64, conv_impl="auto"):
    """An nn.Module (Model) of an `export --format npz|safetensors` file or a model-json file.

    >>> _ = cz.export("primitive/cumsum", {"N": 4, "d": 1}, format="npz", out="w.npz")
    >>> m = czt.load("w.npz", conv_impl="direct")     # direct: no FFT rounding on small integers
    >>> y = m(torch.tensor([[1.0], [2.0], [3.0], [4.0]], dtype=torch.float64))
    >>> y.ravel().tolist(), y.grad_fn is None        # a checking model: no autograd graph
    ([1.0, 3.0, 6.0, 10.0], True)
    """
    path = str(path)
    if path.endswith(".json"):
        with open(path) as f:
            return from_model_json(_json.load(f), dtype, conv_impl)
    sd, meta = read_tensors(path)
    m = _skeleton(meta, {k: tuple(v.shape) for k, v in sd.items()}, dtype, conv_impl)
    m.load_state_dict(sd, strict=True)
    return m


# ---------------------------------------------------------------------------------------------
# zoology's own BaseConv holding our weights


def zoology_state_dicts(source):
    """Per layer, a state_dict for zoology's BaseConv(d_model=N', l_max=N', kernel_size=-1,
    implicit_long_conv=False). ValueError says why when zoology's layer cannot hold the model."""
    m = source if isinstance(source, Model) else load(source)
    if m.conv != "causal":
        raise ValueError(f"zoology's convolution is causal only; this model's is {m.conv}")
    out = []
    for i, L in enumerate(m.layers):
        if not isinstance(L, BaseConv):
            raise ValueError(f"layer {i} is {type(L).__name__}: zoology's BaseConv holds baseconv layers only")
        b1, b2 = L.projection.bias.detach(), L.conv.bias.detach()
        if bool((b2 != 0).any()):
            raise ValueError(f"layer {i} has a conv bias (b2 != 0): zoology's long convolution has none")
        if bool((b1 != b1[0]).any()):
            raise ValueError(f"layer {i}'s projection bias differs between positions: zoology's is one per channel")
        f = L.conv.filter.detach().clone()
        f[:, 0] -= 1  # zoology's fft_conv adds u: an identity tap
        out.append({"projection.weight": L.projection.weight.detach().clone(), "projection.bias": b1[0].clone(),
                    "conv.filter": f})
    return out


class ZoologyStack(_nn.Module):
    """Our model run by zoology's own BaseConv modules (its class passed in): per layer
    x ← zoology_layer(x) − x, which cancels zoology's hard-wired residual `+ u` (every layer: removing
    it once at the end is wrong as soon as there are two layers)."""

    def __init__(self, source, zoology_base_conv):
        super().__init__()
        m = source if isinstance(source, Model) else load(source)
        self.N, self.d, self.inner_N, self.inner_d = m.N, m.d, m.inner_N, m.inner_d
        layers = []
        for sd in zoology_state_dicts(m):
            z = zoology_base_conv(d_model=m.inner_d, l_max=m.inner_N, kernel_size=-1, implicit_long_conv=False)
            z = z.to(m.layers[0].projection.weight.dtype)
            z.load_state_dict(sd, strict=True)
            layers.append(z)
        self.layers = _nn.ModuleList(layers)

    def forward(self, u):
        x = u.new_zeros(u.shape[0], self.inner_N, self.inner_d)
        x[:, :self.N, :self.d] = u
        for layer in self.layers:
            x = layer(x) - x
        return x[:, :self.N, :self.d]


# ---------------------------------------------------------------------------------------------
# zoology's mixers as exact models (issue 28, item 5)


def dyadic(x):
    """A finite float as its exact value p/2^k in model-json (an int, or "p/q").

    >>> czt.dyadic(0.375), czt.dyadic(3.0)
    ('3/8', 3)
    """
    f = _F(float(x))  # every finite float64 (and float32, widened exactly) is p/2^k
    if f.denominator == 1:
        return int(f) if abs(f) < 2 ** 53 else str(int(f))
    return f"{f.numerator}/{f.denominator}"


def exact_input(u):
    """An (N, d) float tensor/array as exact Fractions, for circuitzoo.eval.

    >>> czt.exact_input(torch.tensor([[0.5], [0.25]]))
    [[Fraction(1, 2)], [Fraction(1, 4)]]
    """
    a = _np.asarray(u.detach().cpu().double().numpy() if isinstance(u, _torch.Tensor) else u, dtype=_np.float64)
    return [[_F(float(x)) for x in r] for r in a]


def save_model_json(mj, path):
    """Writes a model-json dict (the CLI reads it: `circuitzoo eval --model PATH`, `verify --model`).
    The dict is checked as the CLI reads it first (ValueError with the CLI's message, nothing
    written), and the file is replaced atomically (an old file stays whole on any failure)."""
    _core.save_model_json(_json.dumps(mj), str(path))


def _zeros(r, c):
    return [[0] * c for _ in range(r)]


def _layer(N, D):
    return {"kind": "baseconv", "W": _zeros(D, D), "b1": _zeros(N, D), "h": _zeros(N, D), "b2": _zeros(N, D)}


def _model(N, d, D, layers):
    return {"format": "circuitzoo.model/1", "ring": "Q", "N": N, "d": d, "inner_N": N, "inner_d": D,
            "conv": "causal", "layers": layers}


def _np64(t):
    return t.detach().cpu().double().numpy()


def _hyena_chain(N, d, W_in, b_in, short, short_bias, filters, W_out, b_out, blocks=1, pad=0):
    """Hyena of order k (Zoology Alg. 2-3) with biases and an output projection, compiled to BaseConv
    layers on (k+1)·c channels (c = the filters' width), as constructions/sim/hyena_sim.h does
    (blocks [z0 | p1 | … | pk], c channels each):
      in:    (x·W_in + b_in) ⊙ 1
      short: 1 ⊙ (h_s ∗ x + b_s)                 (left out when short is None)
      gate ℓ: (x·W_ℓ) ⊙ (h^ℓ ∗ x + b2_ℓ)         block 0 ← p^ℓ ⊙ (h^ℓ ∗ z^{ℓ−1}); blocks > ℓ kept
      out:   (x·W_out + b_out) ⊙ 1               read from block 0
    W_in (d, (k+1)c), b_in ((k+1)c,), short (taps, (k+1)c) with short[t] multiplying x[i−t], filters:
    k arrays (rows, c), W_out (c, d).
    blocks > 1 (zoology Hyena's num_blocks): the last long convolution runs within each block of
    N/blocks tokens and is given as a cyclic filter of N + pad taps (_block_filter); the model is then
    cyclic on N' = N + pad rows, the pad rows kept zero (every b1 is 0 there), so that the causal
    filters (short, δ, at most pad + 1 taps) see no wrap. The last gate becomes three layers on the
    same (k+1)·c channels, blocks split by parity (a block's filter reaches only its two neighbours):
      split: blocks 0 | 1 ← z^{k−1} ⊙ [even-block rows | odd-block rows]   (masks in b2), p^k kept
      conv:  block g ← rows of parity g ⊙ (f ∗ block g)                      (masks in b1), p^k kept
      gate:  block k ← (block 0 + block 1) ⊙ (δ ∗ p^k); out reads block k."""
    k = len(filters)
    c = filters[0].shape[1]
    D = (k + 1) * c
    NN = N + pad
    if blocks > 1 and k < 2:
        raise ValueError("a block-local last gate needs order k >= 2 (blocks 0 and 1 hold the parity groups)")
    live = lambda row, dead=0: [row if i < N else [dead] * len(row) for i in range(NN)]
    layers = []
    L = _layer(NN, D)
    for j in range(d):
        L["W"][j] = [dyadic(x) for x in W_in[j]]
    L["b1"] = live([dyadic(x) for x in b_in])
    L["b2"] = [[1] * D for _ in range(NN)]
    layers.append(L)
    if short is not None:
        if short.shape[0] > pad + 1 and blocks > 1:
            raise ValueError(f"short filter of {short.shape[0]} taps wraps in a cyclic model padded by {pad}")
        L = _layer(NN, D)
        L["b1"] = live([1] * D)
        for t in range(min(N, short.shape[0])):
            L["h"][t] = [dyadic(x) for x in short[t]]
        L["b2"] = [[dyadic(x) for x in short_bias] for _ in range(NN)]
        layers.append(L)
    out_block = 0
    for l in range(1, k + 1):
        h = filters[l - 1]
        if blocks > 1 and l == k:
            layers += _block_gate(N, NN, c, D, k, blocks, h)
            out_block = k
            break
        if blocks > 1 and _np.any(h[pad + 1:] != 0):
            raise ValueError(f"filter {l} reaches beyond {pad + 1} taps: it would wrap in the cyclic model")
        L = _layer(NN, D)
        for j in range(c):
            L["W"][l * c + j][j] = 1
        for ch in range((l + 1) * c, D):
            L["W"][ch][ch] = 1
        for i in range(min(NN, h.shape[0])):
            L["h"][i] = [dyadic(x) for x in h[i]] + [0] * (D - c)
        L["b2"] = [[0] * c + [1] * (D - c) for _ in range(NN)]
        layers.append(L)
    L = _layer(NN, D)
    for j in range(c):
        L["W"][out_block * c + j] = [dyadic(x) for x in W_out[j]] + [0] * (D - d)
    L["b1"] = live([dyadic(x) for x in b_out] + [0] * (D - d))
    L["b2"] = [[1] * d + [0] * (D - d) for _ in range(NN)]
    layers.append(L)
    mj = _model(N, d, D, layers)
    if blocks > 1:
        mj["inner_N"], mj["conv"] = NN, "cyclic"
    return mj


def _block_gate(N, NN, c, D, k, blocks, f):
    """The last gate of _hyena_chain with a block-local filter f (NN, c): split, conv, gate."""
    B = N // blocks
    parity = lambda g: [[1 if i < N and (i // B) % 2 == g else 0] * c for i in range(NN)]
    keep = range(k * c, D)  # p^k
    split = _layer(NN, D)
    conv = _layer(NN, D)
    gate = _layer(NN, D)
    for j in range(c):
        split["W"][j][j] = split["W"][j][c + j] = 1  # z^{k−1} (block 0) to blocks 0 and 1
        gate["W"][j][k * c + j] = gate["W"][c + j][k * c + j] = 1
    for ch in keep:
        split["W"][ch][ch] = conv["W"][ch][ch] = 1
    even, odd = parity(0), parity(1)
    fr = [[dyadic(x) for x in f[i]] for i in range(NN)]
    for i in range(NN):
        split["b2"][i] = even[i] + odd[i] + [1] * (D - 2 * c)
        conv["b1"][i] = even[i] + odd[i] + [0] * (D - 2 * c)
        conv["h"][i] = fr[i] + fr[i] + [0] * (D - 2 * c)
        conv["b2"][i] = [0] * (2 * c) + [1] * (D - 2 * c)
        gate["h"][i] = [0] * (k * c) + [1 if i == 0 else 0] * c
    return [split, conv, gate]


def _block_filter(k, B, NN):
    """zoology's fftconv_ref on blocks of B tokens with a filter k (≥ 2B taps, (taps, c)): its FFT of
    size 2B crops k to 2B taps and wraps taps B+1..2B−1 onto LATER tokens of the same block,
    y[i] = Σ_{j≤i} k[i−j] x[j] + Σ_{i<j<B} k[2B+i−j] x[j] (what it computes, not a causal conv). As a
    cyclic filter of NN taps: f[t] = k[t] (0 ≤ t < B), f[NN−m] = k[2B−m] (1 ≤ m < B)."""
    f = _np.zeros((NN, k.shape[1]))
    f[:B] = k[:B]
    for m in range(1, B):
        f[NN - m] = k[2 * B - m]
    return f


def _delta(N, d, D=None):
    h = _np.zeros((N, d))
    h[0] = 1.0 if D is None else D
    return h


def _import_base_conv(m, N):
    """zoology BaseConv: y = conv(u) ⊙ (u Pᵀ + p) + u, as two causal BaseConv layers on 2d channels:
    [g | u] = ([Pᵀ | I] x + [p | 0]) ⊙ (h ∗ x + [c | 1]), then (x·[I; I]) ⊙ 1 adds the residual."""
    if getattr(m, "use_act", False):
        raise ValueError("zoology BaseConv with use_act=True applies SiLU: not a polynomial, no exact model")
    d = m.d_model
    conv = m.conv
    name = type(conv).__name__
    h = _np.zeros((N, d))
    cb = _np.zeros(d)
    if name == "ShortConvolution":
        w = _np64(conv.conv.weight)[:, 0, :]  # (d, k): tap j multiplies x[t−(k−1)+j]
        kk = w.shape[1]
        for t in range(min(kk, N)):
            h[t] = w[:, kk - 1 - t]
        cb = _np64(conv.conv.bias)
    elif name == "LongConvolution":
        if conv.filter.shape[1] != N:
            raise ValueError(f"zoology's LongConvolution at l={N} < l_max={conv.filter.shape[1]} mixes in later "
                             "tokens (its FFT crops the filter to 2l taps): import at seq_len = l_max")
        h = _np64(conv.filter).T.copy()
        h[0] += 1.0  # fft_conv's `+ u`
    elif name == "ImplicitLongConvolution":
        with _torch.no_grad():
            h = _np64(_copy.deepcopy(conv).double().filter(N))[0].T.copy()  # (N, d), the module's own MLP
        h[0] += 1.0
    else:
        raise ValueError(f"unknown zoology convolution {name}")
    D = 2 * d
    A = _layer(N, D)
    P = _np64(m.projection.weight).T  # (d_in, d_out): u·Pᵀ
    pb = _np64(m.projection.bias)
    for j in range(d):
        A["W"][j] = [dyadic(x) for x in P[j]] + [1 if c == j else 0 for c in range(d)]
    for i in range(N):
        A["b1"][i] = [dyadic(x) for x in pb] + [0] * d
        A["h"][i] = [dyadic(x) for x in h[i]] + [0] * d
        A["b2"][i] = [dyadic(x) for x in cb] + [1] * d
    B = _layer(N, D)
    for j in range(d):
        B["W"][j][j] = 1
        B["W"][d + j][j] = 1
    B["b2"] = [[1] * d + [0] * d for _ in range(N)]
    return _model(N, d, D, [A, B])


def _import_hyena(m, N):
    """zoology Hyena (order 2): [x1|x2|v] = short(u·Wᵀ + b), y = out(x2 ⊙ (k ∗ (x1 ⊙ v) + D ⊙ x1 ⊙ v)).
    As Hyena's chain: z0 = v, z1 = x1 ⊙ (δ0 ∗ z0), z2 = x2 ⊙ ((k + D·δ0) ∗ z1). With num_blocks = z > 1
    the long convolution runs within blocks of N/z tokens as zoology computes it (_block_filter: it
    also reaches later tokens of the block): the chain's block-local gate, cyclic on N + pad rows."""
    if m.num_heads != 1:
        # zoology's forward rearranges the 3d short-conv channels to (heads, 3·head_dim) and splits
        # that axis into chunks of d_model: with num_heads > 1 there are fewer than three chunks and
        # `x1, x2, v = uc.split(...)` raises. No function is computed, so there is nothing to import.
        raise ValueError(f"zoology Hyena with num_heads={m.num_heads}: its own forward cannot run (it splits "
                         "the 3·head_dim channels of each head into chunks of d_model, fewer than the three "
                         "x1, x2, v it unpacks): only num_heads=1 is imported")
    if m.bidirectional:
        raise ValueError("zoology Hyena with bidirectional=True: its own forward cannot run (its Filter has "
                         "no filter_rev), so there is no reverse filter to import: only bidirectional=False")
    if m.training and (m.dropout.p > 0):
        raise ValueError("zoology Hyena in training mode with dropout: call .eval() first")
    z = m.num_blocks
    if N % z:
        raise ValueError(f"zoology Hyena with num_blocks={z} needs seq_len divisible by it (seq_len {N})")
    d = m.d_model
    perm = list(range(2 * d, 3 * d)) + list(range(0, 2 * d))  # columns [v | x1 | x2]
    W = _np64(m.in_proj.weight).T[:, perm]
    b = _np64(m.in_proj.bias)[perm]
    w = _np64(m.short_filter.weight)[:, 0, :]  # (3d, k), Conv1d with padding k−1: tap j on x[t−(k−1)+j]
    kk = w.shape[1]
    short = _np.stack([w[:, kk - 1 - t] for t in range(kk)])[:, perm]
    sb = _np64(m.short_filter.bias)[perm]
    with _torch.no_grad():
        f = _copy.deepcopy(m.filter_fn).double()
        k = _np64(f.filter(N))[0]  # (N, d): the implicit filter materialised at length N
        Dt = _np64(f.bias) if f.use_bias else _np.zeros(d)
    blocks, pad = 1, 0
    if z > 1:
        B = N // z
        pad = max(B - 1, kk - 1, 1)
        h2 = _block_filter(k, B, N + pad)
        blocks = z
    else:
        h2 = k.copy()
    h2[0] += Dt
    return _hyena_chain(N, d, W, b, short, sb, [_delta(N, d), h2], _np64(m.out_proj.weight).T,
                        _np64(m.out_proj.bias), blocks, pad)


def _import_h3(m, N):
    """zoology H3: q, k, v = u·Wᵀ + b; k ← h_shift ∗ k + D_k ⊙ k (per channel); per head h of head_dim
    e channels, kv[h, i, j] = k[h·e+i] v[h·e+j]; y[h, i, j] = h_diag[h] ∗ kv + D[h] kv (one diagonal
    SSM per head); o[j·H + h] = Σ_i q[h·e+i] y[h, i, j] (zoology's mul_sum, then 'b d h l -> b (d h) l':
    the output channel order is (j, h), not the input's (h, i)); out = output_linear(o).
    As Hyena's chain on c = H·e² = d·e product channels (h, i, j): z0 = k[h·e+i], z1 = v[h·e+j] ⊙ (h1 ∗ z0),
    z2 = q[h·e+i] ⊙ (h2 ∗ z1), and the output projection's row (h, i, j) is output_linear's column
    j·H + h (the sum over i). Width d' = 3·d·e (3d at e = 1, as before)."""
    # The kernels are zoology's own (ss_kernel_*.py cast to float32): their float32 values, exactly.
    d, e = m.d_model, m.head_dim
    H = d // e
    with _torch.no_grad():
        mm = _copy.deepcopy(m).double()
        Lk = N if mm.L is None else min(N, mm.L)
        hs = _np64(mm.ssm_k_kernel(L=Lk, state=None, rate=1.0)[0])[0].T  # (Lk, d)
        hd = _np64(mm.kernel(L=Lk, state=None, rate=1.0)[0])[0].T  # (Lk, H)
    hs1, hd1 = _np.zeros((N, d)), _np.zeros((N, H))
    hs1[:Lk], hd1[:Lk] = hs, hd
    hs1[0] += _np64(mm.ssm_k_D)
    hd1[0] += _np64(mm.D)
    prod = [(h, i, j) for h in range(H) for i in range(e) for j in range(e)]  # channel order
    ki = [h * e + i for h, i, j in prod]  # k's and q's channel of a product channel
    vj = [h * e + j for h, i, j in prod]
    Wk, Wv, Wq = (_np64(x.weight).T for x in (mm.k_proj, mm.v_proj, mm.q_proj))
    bk, bv, bq = (_np64(x.bias) for x in (mm.k_proj, mm.v_proj, mm.q_proj))
    W = _np.concatenate([Wk[:, ki], Wv[:, vj], Wq[:, ki]], axis=1)
    b = _np.concatenate([bk[ki], bv[vj], bq[ki]])
    h1 = hs1[:, ki]
    h2 = hd1[:, [h for h, i, j in prod]]
    Wo = _np64(mm.output_linear.weight).T  # (d_in, d_out)
    W_out = Wo[[j * H + h for h, i, j in prod]]
    return _hyena_chain(N, d, W, b, None, None, [h1, h2], W_out, _np64(mm.output_linear.bias))


def import_zoology(module, seq_len=None):
    """A zoology mixer (BaseConv, Hyena or H3 module, weights loaded) as a model-json dict over Q at
    sequence length seq_len: every weight, and every filter the module materialises in float64, as
    its exact dyadic value. Evaluate it with circuitzoo.eval (exact) or save_model_json + the CLI.
    From a bare state_dict: build zoology's module, load_state_dict, then import.

    circuitzoo.torch's own modules share zoology's class names but are already exact: they are told
    apart by type (issue 49 item 17), not by name. A Model is written as it is (to_model_json); a
    BaseConv or Mlp layer as the one-layer model on its own n rows (seq_len must be n); a
    LinearAttention layer does not know its rows: wrap it in a Model.

    >>> ours = czt.BaseConv(4, 2, "causal")          # circuitzoo's own layer: exact already
    >>> mj = czt.import_zoology(ours, 4)             # (zoology's BaseConv, Hyena, H3 as above)
    >>> mj["N"], mj["d"], [L["kind"] for L in mj["layers"]]
    (4, 2, ['baseconv'])
    """
    if isinstance(module, Model):
        if seq_len is not None and seq_len != module.N:
            raise ValueError(f"this circuitzoo.torch Model takes N = {module.N} rows, not seq_len = {seq_len}")
        return to_model_json(module)
    if isinstance(module, (BaseConv, Mlp)):
        if isinstance(module, BaseConv):
            d, n = module.conv.filter.shape
            m = Model(n, d, n, d, module.conv.mode, ["baseconv"])
        else:
            n, d = module.fc1.bias.shape[0], module.fc1.weight.shape[1]
            m = Model(n, d, n, d, "causal", ["mlp"], [module.fc1.weight.shape[0]])
        if seq_len is not None and seq_len != n:
            raise ValueError(f"this circuitzoo.torch.{type(module).__name__} is defined on n = {n} rows, not seq_len = {seq_len} "
                             "(our layers are exact already: no filter is materialised)")
        m.layers[0] = module
        return to_model_json(m)
    if isinstance(module, (LinearAttention, Conv, Projection)):
        raise ValueError(f"circuitzoo.torch.{type(module).__name__} is ours, not zoology's, and has no row count of its own: "
                         "put it in a circuitzoo.torch.Model and pass that (or call to_model_json)")
    name = type(module).__name__
    if seq_len is None and name in ("BaseConv", "Hyena", "H3"):
        raise ValueError(f"import_zoology(zoology's {name}, seq_len): seq_len is needed (its filters are materialised at it)")
    if name == "BaseConv":
        return _import_base_conv(module, seq_len)
    if name == "Hyena":
        return _import_hyena(module, seq_len)
    if name == "H3":
        return _import_h3(module, seq_len)
    if name == "RWKVTimeMixer":
        raise ValueError("RWKV's WKV is a ratio, not a polynomial: use import_rwkv (two exact models)")
    raise ValueError(f"no importer for {name} (want zoology's BaseConv, Hyena, H3; RWKV via import_rwkv)")


def import_rwkv(state, seq_len):
    """RWKV-4 time mixing (zoology/mixers/rwkv.py, RWKVTimeMixer: its state_dict or the module) as the
    two exact models around its non-polynomial steps (BaseConv computes polynomials):
      kvr: x (N×d, embedded as [x | 0 | 0]) -> [k | v | r] (token shift and projections, exact):
           copy [x|x|x], then 1 ⊙ (h ∗ x) with h[0] = μ, h[1] = 1 − μ (μ = time_mix_k, _v, _r), then (x·blockdiag) ⊙ 1
      wkv: [e^k ⊙ v | e^k] -> [num | den], one layer 1 ⊙ (h ∗ x): h[0] = e^u, h[s] = e^{−(s−1)·e^w} (s ≥ 1),
           u = time_first, w = time_decay: WKV v4's sums exactly, the filter taps materialised in float64.
    What is not a polynomial runs in float64 between them (rwkv_forward): e^k, the ratio num/den,
    sigmoid(r) and the output projection. Returns {"kvr", "wkv", "output_weight"}."""
    sd = state.state_dict() if isinstance(state, _nn.Module) else state
    g = lambda k: _np64(sd[k]) if isinstance(sd[k], _torch.Tensor) else _np.asarray(sd[k], dtype=_np.float64)
    Wk, Wv, Wr = g("key.weight"), g("value.weight"), g("receptance.weight")
    d, N = Wk.shape[1], seq_len
    D = 3 * d
    copy_ = _layer(N, D)
    for j in range(d):
        for blk in range(3):
            copy_["W"][j][blk * d + j] = 1
    copy_["b2"] = [[1] * D for _ in range(N)]
    shift = _layer(N, D)
    shift["b1"] = [[1] * D for _ in range(N)]
    mix = _np.concatenate([g("time_mix_k").reshape(-1), g("time_mix_v").reshape(-1), g("time_mix_r").reshape(-1)])
    shift["h"][0] = [dyadic(x) for x in mix]
    if N > 1:
        shift["h"][1] = [_exact_str(1 - _F(float(x))) for x in mix]
    proj = _layer(N, D)
    for blk, Wm in enumerate((Wk, Wv, Wr)):
        for j in range(d):
            for c in range(d):
                proj["W"][blk * d + j][blk * d + c] = dyadic(Wm[c, j])
    proj["b2"] = [[1] * D for _ in range(N)]
    kvr = _model(N, D, D, [copy_, shift, proj])
    u, w = g("time_first"), g("time_decay")
    taps = _np.zeros((N, d))
    taps[0] = _np.exp(u)
    for s in range(1, N):
        taps[s] = _np.exp(-(s - 1) * _np.exp(w))
    L = _layer(N, 2 * d)
    L["b1"] = [[1] * (2 * d) for _ in range(N)]
    L["h"] = [[dyadic(x) for x in taps[s]] * 2 for s in range(N)]
    wkv = _model(N, 2 * d, 2 * d, [L])
    return {"kvr": kvr, "wkv": wkv, "output_weight": g("output.weight")}


def _exact_str(f):
    return int(f) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def rwkv_forward(imported, x, evaluate):
    """RWKV-4 time mixing on one (N, d) float input through the exact models of import_rwkv, with
    `evaluate(model_json, fractions)` the exact evaluator (circuitzoo.eval). Returns (y, wkv) as
    float64 arrays; k, v, r, num and den are exact, e^k, num/den, sigmoid and the output in float64."""
    d = imported["output_weight"].shape[1]
    xin = [r + [_F(0)] * (2 * d) for r in exact_input(x)]
    kvr = evaluate(imported["kvr"], xin)
    k = _np.array([[float(_frac_any(e)) for e in r[:d]] for r in kvr])
    v = [[_frac_any(e) for e in r[d:2 * d]] for r in kvr]
    r_ = _np.array([[float(_frac_any(e)) for e in r[2 * d:]] for r in kvr])
    ek = _np.exp(k)
    win = [[_F(float(ek[i, c])) * v[i][c] for c in range(d)] + [_F(float(ek[i, c])) for c in range(d)]
           for i in range(len(v))]
    nd = evaluate(imported["wkv"], win)
    wkv = _np.array([[float(_frac_any(r[c]) / _frac_any(r[d + c])) for c in range(d)] for r in nd])
    y = (1.0 / (1.0 + _np.exp(-r_)) * wkv) @ imported["output_weight"].T
    return y, wkv


def _frac_any(e):
    return e if isinstance(e, _F) else _F(int(e)) if isinstance(e, (int, _np.integer)) else _F(e)
