"""zoology's own code (CZ_PEERS, from ../shared/peers; run.py skips with 77 without it) against
circuitzoo: our weights in zoology's BaseConv (issue 26 item 1) and zoology's mixers imported
exactly (issue 28 item 5), N = 64, d = 16, float64."""
import json
import os

import numpy as np
import pytest
import torch

import circuitzoo as cz
import circuitzoo.torch as czt
import zoology_import as zi  # examples/ (conftest.py puts it on sys.path)

Z = zi.zoology(os.environ["CZ_PEERS"])
N, D = 64, 16


def _rel(y, exact):
    e = np.array(exact, dtype=object).astype(float)
    return float(np.abs(y - e).max() / max(1.0, np.abs(e).max()))


def _adapter_error(stack, mj, seed=0):
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(2):
        u = rng.integers(-3, 4, size=(stack.N, stack.d))
        with torch.no_grad():
            y = stack(torch.tensor(u, dtype=torch.float64)[None])[0].numpy()
        worst = max(worst, _rel(y, cz.eval(mj, u.tolist())))
    return worst


def test_adapter_holds_what_zoology_can(cli, tmp_path):
    """Each construction's export either runs in zoology's BaseConv (residual removed per layer) and
    equals eval, or is refused with the reason zoology cannot hold it."""
    held, refused = [], {}
    for name in [c["name"] for c in json.loads(cli("list", "--json").stdout)]:
        p = tmp_path / "m.json"
        if cli("export", name, "--format", "model-json", "-o", p).returncode != 0:
            continue
        mj = json.load(open(p))
        try:
            stack = czt.ZoologyStack(czt.load(p), Z["BaseConv"])
        except ValueError as e:
            refused[name] = str(e)
            continue
        assert all(type(L).__name__ == "BaseConv" and L.__module__.startswith("zoology") for L in stack.layers)
        assert _adapter_error(stack, mj) < 1e-9, name
        held.append(name)
    assert {"primitive/shift_down", "primitive/cumsum", "primitive/identity", "primitive/hadamard"} <= set(held)
    assert any("conv bias" in r for r in refused.values()) and any("causal only" in r for r in refused.values())
    assert len(held) + len(refused) >= 13 and not set(held) & set(refused)


def _two_layer_model(seed=3, n=6, d=2):
    rng = np.random.default_rng(seed)
    layers = []
    for _ in range(2):
        b1 = rng.integers(-2, 3, size=d).tolist()
        layers.append({"kind": "baseconv", "W": rng.integers(-2, 3, size=(d, d)).tolist(), "b1": [b1] * n,
                       "h": rng.integers(-2, 3, size=(n, d)).tolist(), "b2": [[0] * d for _ in range(n)]})
    return {"format": "circuitzoo.model/1", "ring": "Z", "N": n, "d": d, "inner_N": n, "inner_d": d,
            "conv": "causal", "layers": layers}


def test_residual_is_removed_per_layer():
    mj = _two_layer_model()
    stack = czt.ZoologyStack(czt.from_model_json(mj), Z["BaseConv"])
    assert _adapter_error(stack, mj) < 1e-9

    class Once(torch.nn.Module):  # the README's old advice: subtract the input once, at the end
        def forward(self, u):
            x = u
            for L in stack.layers:
                x = L(x)
            return x - u
    once = Once()
    once.N, once.d = stack.N, stack.d
    assert _adapter_error(once, mj) > 0.01


@pytest.fixture(scope="module")
def mixers():
    return zi.build_mixers(Z, N=N, d=D, seed=0)


@pytest.mark.parametrize("name", ["BaseConv short", "BaseConv long", "Hyena", "H3", "RWKV"])
def test_import_agrees_with_zoology(mixers, name):
    imp = zi.Imported(name, mixers[name], N, czt, cz)
    u = torch.randn(1, N, D, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    assert zi.agreement(imp, u) < 1e-9
    if imp.model_json is not None:
        assert imp.model_json["ring"] == "Q" and imp.model_json["N"] == N and imp.model_json["d"] == D


def test_imported_weights_are_the_floats_exactly(mixers):
    mj = czt.import_zoology(mixers["BaseConv short"], N)
    from fractions import Fraction
    P = mixers["BaseConv short"].projection.weight.detach().numpy()
    got = [[Fraction(x) if isinstance(x, str) else Fraction(x) for x in r[:D]] for r in mj["layers"][0]["W"][:D]]
    assert all(got[j][c] == Fraction(float(P[c, j])) for j in range(D) for c in range(D))
    assert all(Fraction(x).denominator & (Fraction(x).denominator - 1) == 0
               for r in mj["layers"][0]["W"] for x in map(str, r))  # dyadic: denominators 2^k


def test_a_changed_imported_weight_is_caught(mixers):
    imp = zi.Imported("Hyena", mixers["Hyena"], N, czt, cz)
    imp.model_json["layers"][-1]["b1"][7][3] = 5  # the output bias at one position
    u = torch.randn(1, N, D, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
    assert zi.agreement(imp, u) > 1e-3


def test_imported_file_runs_in_the_cli(cli, tmp_path, mixers):
    _cli_equals_eval(cli, tmp_path, czt.import_zoology(mixers["BaseConv long"], N))


def _cli_equals_eval(cli, tmp_path, mj):
    path = tmp_path / "model.json"
    czt.save_model_json(mj, path)
    u = np.random.default_rng(2).integers(-3, 4, size=(N, D))
    (tmp_path / "in.json").write_text(json.dumps({"input": u.tolist()}))
    r = cli("eval", "--model", path, "--input", tmp_path / "in.json", "--json", "-")
    assert r.returncode == 0, r.stderr
    from fractions import Fraction
    out = [[Fraction(x) if isinstance(x, str) else Fraction(int(x)) for x in row] for row in json.loads(r.stdout)["output"]]
    ref = cz.eval(mj, u.tolist())
    assert all(out[i][j] == Fraction(ref[i][j]) for i in range(N) for j in range(D))


@pytest.mark.parametrize("name", ["Hyena", "RWKV"])
def test_mqar_answer_changes_are_sound(mixers, name):
    """Reduced precision may change an MQAR answer only where the exact margin is within its error."""
    imp = zi.Imported(name, mixers[name], N, czt, cz)
    res = zi.mqar_flips(imp, czt, cz, examples=1)
    assert res["float64"][0] == 0 and "float32" in res
    for changed, total, sound in res.values():
        assert total == 8 and 0 <= changed <= total and sound


# zoology's other shapes (num_blocks, head_dim): imported exactly, or refused where zoology's own forward
# cannot run. N = 64, d = 16 as above.
VARIANTS = ["Hyena num_blocks=2", "Hyena num_blocks=4", "H3 head_dim=2"]


@pytest.fixture(scope="module")
def variants():
    return zi.build_mixers(Z, N=N, d=D, seed=0, names=VARIANTS)


def _u(seed=5):
    return torch.randn(1, N, D, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_agrees_with_zoology(variants, name):
    imp = zi.Imported(name, variants[name], N, czt, cz)
    assert zi.agreement(imp, _u()) < 1e-9
    mj = imp.model_json
    if name.startswith("H3"):  # one channel per (head, i, j) product: d' = 3·d·head_dim
        assert (mj["inner_d"], mj["inner_N"], mj["conv"], len(mj["layers"])) == (3 * D * 2, N, "causal", 4)
    else:  # blocks: cyclic on N + N/z − 1 rows (pad rows zero), same 3d channels, 7 layers
        z = int(name[-1])
        assert (mj["inner_d"], mj["inner_N"], mj["conv"], len(mj["layers"])) == (3 * D, N + N // z - 1, "cyclic", 7)


def test_blocked_hyena_reaches_later_tokens_of_its_block_only(variants):
    """zoology's FFT of size 2B wraps the filter's taps B+1..2B−1 onto later tokens of the same block:
    the import keeps that, exactly (Fractions), and keeps blocks apart beyond the short conv's reach."""
    m = variants["Hyena num_blocks=2"]
    mj = czt.import_zoology(m, N)
    u = _u()[0]
    w = u.clone()
    w[10] += 1.0  # a token in block 0 (rows 0..31)
    a, b = (cz.eval(mj, czt.exact_input(x)) for x in (u, w))
    assert any(a[3][c] != b[3][c] for c in range(D))  # an earlier row of the same block changes
    assert all(a[i][c] == b[i][c] for i in range(32, N) for c in range(D))  # block 1 does not
    with torch.no_grad():
        dz = (m(w[None]) - m(u[None]))[0].abs()
    assert float(dz[3].max()) > 1e-6 and float(dz[32:].max()) == 0.0


def test_blocked_hyena_file_runs_in_the_cli(cli, tmp_path, variants):
    """The cyclic model with inner_N > N, through the C++ reader and evaluator."""
    _cli_equals_eval(cli, tmp_path, czt.import_zoology(variants["Hyena num_blocks=2"], N))


def test_a_changed_variant_weight_is_caught(variants):
    # H3 head_dim=2: the output projection's row of product (head 0, i=1, j=0), one of the terms summed over i
    imp = zi.Imported("H3 head_dim=2", variants["H3 head_dim=2"], N, czt, cz)
    imp.model_json["layers"][-1]["W"][2][0] = 3
    assert zi.agreement(imp, _u()) > 1e-3
    # Hyena num_blocks=2 read as a causal conv per block: the wrapped taps (the conv layer's last rows) dropped
    imp = zi.Imported("Hyena num_blocks=2", variants["Hyena num_blocks=2"], N, czt, cz)
    conv = imp.model_json["layers"][-3]["h"]
    for t in range(N, len(conv)):
        conv[t] = [0] * len(conv[t])
    assert zi.agreement(imp, _u()) > 1e-3


def _h3_with_heads_in_input_order(m):
    """The mutant of H3's output order: channel h·e + j (the input's order) instead of zoology's j·H + h."""
    mj = czt.import_zoology(m, N)
    e, H = m.head_dim, D // m.head_dim
    W = mj["layers"][-1]["W"]
    Wo = czt._np64(m.output_linear.weight).T
    for r, (h, i, j) in enumerate((h, i, j) for h in range(H) for i in range(e) for j in range(e)):
        W[r] = [czt.dyadic(x) for x in Wo[h * e + j]] + [0] * (len(W[r]) - D)
    return mj


def test_h3_output_channel_order_is_zoologys(variants):
    m = variants["H3 head_dim=2"]
    imp = zi.Imported("H3 head_dim=2", m, N, czt, cz)
    imp.model_json = _h3_with_heads_in_input_order(m)
    assert zi.agreement(imp, _u()) > 1e-3


@pytest.mark.parametrize("kw,why", [({"num_heads": 2}, "num_heads=2"), ({"num_heads": 4}, "num_heads=4"),
                                    ({"bidirectional": True}, "filter_rev")])
def test_what_zoology_cannot_run_is_refused(kw, why):
    """zoology's Hyena forward raises for num_heads > 1 (its split gives fewer than x1, x2, v) and for
    bidirectional (Filter has no filter_rev): nothing is computed, so the import refuses and says why.
    Should zoology fix either, the first assertion fails and the import is due."""
    prev = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        m = Z["Hyena"](D, N, **kw).eval()
    finally:
        torch.set_default_dtype(prev)
    with pytest.raises((ValueError, AttributeError)):
        m(_u())
    with pytest.raises(ValueError, match=why):
        czt.import_zoology(m, N)


def test_blocks_need_a_divisible_length(variants):
    with pytest.raises(ValueError, match="divisible"):
        czt.import_zoology(variants["Hyena num_blocks=4"], 62)


def _h3_layer_from_zoology(m, n, form):
    """The exact `h3` layer (contract: Architecture layers) with zoology's H3 weights (head_dim 1,
    projection biases 0): W_* from the projections, each kernel as an SSM of state n: the shift
    kernel k_s[t] by the shift SSM B = e0, C = k_s (its D term folded in), the diagonal kernel k_d by
    a diagonal SSM with λ_i = i, B_i = 1 and C solving the Vandermonde system Σ_i C_i i^t = k_d[t]."""
    from fractions import Fraction as F
    import copy
    d = m.d_model
    with torch.no_grad():
        mm = copy.deepcopy(m).double()
        ks = mm.ssm_k_kernel(L=n, state=None, rate=1.0)[0][0].T.numpy().copy()  # (n, d), zoology's float32 values
        kd = mm.kernel(L=n, state=None, rate=1.0)[0][0].T.numpy().copy()
    ks[0] += mm.ssm_k_D.detach().numpy()
    kd[0] += mm.D.detach().numpy()

    def solve(col):  # exact Gauss-Jordan on V[t][i] = i^t (0^0 = 1)
        A = [[F(i) ** t if (i or t) else F(1) for i in range(n)] + [F(float(col[t]))] for t in range(n)]
        for c in range(n):
            p = next(r for r in range(c, n) if A[r][c] != 0)
            A[c], A[p] = A[p], A[c]
            A[c] = [x / A[c][c] for x in A[c]]
            for r in range(n):
                if r != c and A[r][c] != 0:
                    A[r] = [x - A[r][c] * y for x, y in zip(A[r], A[c])]
        return [str(A[i][n]) for i in range(n)]

    def w(lin):
        return [[str(F(float(x))) for x in row] for row in lin.weight.detach().double().numpy().T]
    e0 = ["1"] + ["0"] * (n - 1)
    return {"kind": "h3", "form": form, "WQ": w(m.q_proj), "WK": w(m.k_proj), "WV": w(m.v_proj),
            "shift": [{"B": e0, "C": [str(F(float(ks[t, c]))) for t in range(n)], "D": "0"} for c in range(d)],
            "diag": [{"lambda": [str(i) for i in range(n)], "B": ["1"] * n, "C": solve(kd[:, c]), "D": "0"} for c in range(d)]}


def test_h3_layer_and_zoology_import_are_one_operator():
    """issue 35: the exact `h3` layer ("published") and import_zoology of zoology's H3 are the same
    operator on the same weights (they were two operators under one name); "shift_v" is not."""
    n, d = 6, 3
    torch.manual_seed(11)
    m = Z["H3"](d, d_state=4, l_max=n).double()
    with torch.no_grad():  # the h3 layer has no biases and no output projection
        for lin in (m.q_proj, m.k_proj, m.v_proj):
            lin.bias.zero_()
        m.output_linear.weight.copy_(torch.eye(d))
        m.output_linear.bias.zero_()
    imported = czt.import_zoology(m, n)

    def h3_model(form):
        return {"format": "circuitzoo.model/1", "ring": "Q", "N": n, "d": d, "inner_N": n, "inner_d": 3 * d,
                "conv": "causal", "layers": [_h3_layer_from_zoology(m, n, form)]}
    rng = np.random.default_rng(3)
    differ = 0
    for _ in range(3):
        u = rng.integers(-3, 4, size=(n, d)).tolist()
        want = cz.eval(imported, u)
        assert (np.array(cz.eval(h3_model("published"), u), dtype=object) == np.array(want, dtype=object)).all()
        differ += int((np.array(cz.eval(h3_model("shift_v"), u), dtype=object) != np.array(want, dtype=object)).any())
    assert differ > 0
