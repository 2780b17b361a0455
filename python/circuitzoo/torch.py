"""circuitzoo's layer kinds as PyTorch modules, and zoology's mixers as exact circuitzoo models.

    import circuitzoo.torch as czt
    m = czt.load("w.safetensors")          # or .npz, or a model-json file; an nn.Module, float64
    y = m(u)                                # u: (batch, N, d) -> (batch, N, d)
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
    zoology's ss_kernel_*.py compute in float32 whatever the module's dtype: taken as computed). import_rwkv: RWKV-4 time mixing as
    two exact models around the non-polynomial steps (exp, the WKV ratio, sigmoid).
"""
import copy as _copy
import json as _json
import struct as _struct
from fractions import Fraction as _F

import numpy as _np
import torch as _torch
from torch import nn as _nn

__all__ = ["Model", "BaseConv", "Mlp", "LinearAttention", "Conv", "Projection", "load", "read_tensors",
           "from_model_json", "ZoologyStack", "zoology_state_dicts", "import_zoology", "import_rwkv",
           "rwkv_forward", "dyadic", "save_model_json", "exact_input"]

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
    return m.to(dtype)


def _frac(x):
    return _F(x) if isinstance(x, str) else _F(int(x)) if isinstance(x, int) else _F(x)


def _mat(rows, transpose=False):
    a = _torch.tensor([[float(_frac(x)) for x in r] for r in rows], dtype=_torch.float64)
    return a.T.contiguous() if transpose else a


def from_model_json(mj, dtype=_torch.float64, conv_impl="auto"):
    """An nn.Module of a model-json dict, or of circuitzoo.build(...)["model"] (numpy matrices); exact
    entries are rounded to the nearest float."""
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


def load(path, dtype=_torch.float64, conv_impl="auto"):
    """An nn.Module (Model) of an `export --format npz|safetensors` file or a model-json file."""
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
    """A finite float as its exact value p/2^k in model-json (an int, or "p/q")."""
    f = _F(float(x))  # every finite float64 (and float32, widened exactly) is p/2^k
    if f.denominator == 1:
        return int(f) if abs(f) < 2 ** 53 else str(int(f))
    return f"{f.numerator}/{f.denominator}"


def exact_input(u):
    """An (N, d) float tensor/array as exact Fractions, for circuitzoo.eval."""
    a = _np.asarray(u.detach().cpu().double().numpy() if isinstance(u, _torch.Tensor) else u, dtype=_np.float64)
    return [[_F(float(x)) for x in r] for r in a]


def save_model_json(mj, path):
    """Writes a model-json dict (the CLI reads it: `circuitzoo eval --model PATH`, `verify --model`)."""
    with open(path, "w") as f:
        _json.dump(mj, f)


def _zeros(r, c):
    return [[0] * c for _ in range(r)]


def _layer(N, D):
    return {"kind": "baseconv", "W": _zeros(D, D), "b1": _zeros(N, D), "h": _zeros(N, D), "b2": _zeros(N, D)}


def _model(N, d, D, layers):
    return {"format": "circuitzoo.model/1", "ring": "Q", "N": N, "d": d, "inner_N": N, "inner_d": D,
            "conv": "causal", "layers": layers}


def _np64(t):
    return t.detach().cpu().double().numpy()


def _hyena_chain(N, d, W_in, b_in, short, short_bias, filters, W_out, b_out):
    """Hyena of order k (Zoology Alg. 2-3) with biases and an output projection, compiled to causal
    BaseConv layers on (k+1)·d channels, as constructions/sim/hyena_sim.h does (blocks [z0 | p1 | … | pk]):
      in:    (x·W_in + b_in) ⊙ 1
      short: 1 ⊙ (h_s ∗ x + b_s)                 (left out when short is None)
      gate ℓ: (x·W_ℓ) ⊙ (h^ℓ ∗ x + b2_ℓ)         block 0 ← p^ℓ ⊙ (h^ℓ ∗ z^{ℓ−1}); blocks > ℓ kept
      out:   (x·W_out + b_out) ⊙ 1               read from block 0
    W_in (d, D), b_in (D,), short (taps, D) with short[t] multiplying x[i−t], filters: k arrays (N, d)."""
    k = len(filters)
    D = (k + 1) * d
    layers = []
    L = _layer(N, D)
    for j in range(d):
        L["W"][j] = [dyadic(x) for x in W_in[j]]
    L["b1"] = [[dyadic(x) for x in b_in] for _ in range(N)]
    L["b2"] = [[1] * D for _ in range(N)]
    layers.append(L)
    if short is not None:
        L = _layer(N, D)
        L["b1"] = [[1] * D for _ in range(N)]
        for t in range(min(N, short.shape[0])):
            L["h"][t] = [dyadic(x) for x in short[t]]
        L["b2"] = [[dyadic(x) for x in short_bias] for _ in range(N)]
        layers.append(L)
    for l in range(1, k + 1):
        L = _layer(N, D)
        for j in range(d):
            L["W"][l * d + j][j] = 1
        for c in range((l + 1) * d, D):
            L["W"][c][c] = 1
        h = filters[l - 1]
        for i in range(N):
            L["h"][i] = [dyadic(x) for x in h[i]] + [0] * (D - d)
            L["b2"][i] = [0] * d + [1] * (D - d)
        layers.append(L)
    L = _layer(N, D)
    for j in range(d):
        L["W"][j] = [dyadic(x) for x in W_out[j]] + [0] * (D - d)
    L["b1"] = [[dyadic(x) for x in b_out] + [0] * (D - d) for _ in range(N)]
    L["b2"] = [[1] * d + [0] * (D - d) for _ in range(N)]
    layers.append(L)
    return _model(N, d, D, layers)


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
    As Hyena's chain: z0 = v, z1 = x1 ⊙ (δ0 ∗ z0), z2 = x2 ⊙ ((k + D·δ0) ∗ z1)."""
    if m.num_heads != 1 or m.num_blocks != 1 or m.bidirectional:
        raise ValueError("zoology Hyena: only num_heads=1, num_blocks=1, bidirectional=False are imported")
    if m.training and (m.dropout.p > 0):
        raise ValueError("zoology Hyena in training mode with dropout: call .eval() first")
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
    h2 = k.copy()
    h2[0] += Dt
    return _hyena_chain(N, d, W, b, short, sb, [_delta(N, d), h2], _np64(m.out_proj.weight).T,
                        _np64(m.out_proj.bias))


def _import_h3(m, N):
    """zoology H3 (head_dim 1): q, k, v = u·Wᵀ + b; k ← h_shift ∗ k + D_k ⊙ k; y = q ⊙ (h_diag ∗ (k ⊙ v) +
    D ⊙ k ⊙ v); out = output_linear(y). As Hyena's chain: z0 = k, z1 = v ⊙ (h1 ∗ z0), z2 = q ⊙ (h2 ∗ z1)."""
    # The kernels are zoology's own (ss_kernel_*.py cast to float32): their float32 values, exactly.
    if m.head_dim != 1:
        raise ValueError("zoology H3: only head_dim=1 is imported")
    d = m.d_model
    with _torch.no_grad():
        mm = _copy.deepcopy(m).double()
        Lk = N if mm.L is None else min(N, mm.L)
        hs = _np64(mm.ssm_k_kernel(L=Lk, state=None, rate=1.0)[0])[0].T  # (Lk, d)
        hd = _np64(mm.kernel(L=Lk, state=None, rate=1.0)[0])[0].T
    h1, h2 = _np.zeros((N, d)), _np.zeros((N, d))
    h1[:Lk], h2[:Lk] = hs, hd
    h1[0] += _np64(mm.ssm_k_D)
    h2[0] += _np64(mm.D)
    W = _np.concatenate([_np64(mm.k_proj.weight).T, _np64(mm.v_proj.weight).T, _np64(mm.q_proj.weight).T], axis=1)
    b = _np.concatenate([_np64(mm.k_proj.bias), _np64(mm.v_proj.bias), _np64(mm.q_proj.bias)])
    return _hyena_chain(N, d, W, b, None, None, [h1, h2], _np64(mm.output_linear.weight).T,
                        _np64(mm.output_linear.bias))


def import_zoology(module, seq_len):
    """A zoology mixer (BaseConv, Hyena or H3 module, weights loaded) as a model-json dict over Q at
    sequence length seq_len: every weight, and every filter the module materialises in float64, as
    its exact dyadic value. Evaluate it with circuitzoo.eval (exact) or save_model_json + the CLI.
    From a bare state_dict: build zoology's module, load_state_dict, then import."""
    name = type(module).__name__
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
