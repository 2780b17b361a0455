#!/usr/bin/env python3
"""Draw a circuitzoo sweep (`circuitzoo sweep ... --json`) on log-log axes.

    plot.py SWEEP.json OUT.svg|png      (what `circuitzoo sweep ... --plot OUT` runs)
    plot.py --claims LEDGER.json OUT    (what `circuitzoo claims --plot OUT` runs)
    plot.py --check                     (exit 0 when matplotlib imports)

One panel per asymptotic claim: the achieved value against the varied parameter, and the claim's
O(.) shape scaled to the data (by the geometric mean of achieved/shape), with the fitted log-log
exponents in the legend. One more panel shows up to eight measured quantities that change (size,
depth, layers, parameters first, then the fastest-growing), each with its fitted exponent.
With --claims: one panel per asymptotic row of the claims ledger (`claims --json`), the measured
quantity against the claimed shape's value at each size (so an O(shape) claim holds when the
points lie under a line of slope 1), that line, the fitted slope with the row's tolerance, and
the row's computed status in the title.
Needs matplotlib (Debian: python3-matplotlib); exits 3 with `error: ...` on stderr without it.
"""
import json
import math
import sys
import textwrap


def fail(msg, code=3):
    print("error: " + msg, file=sys.stderr)
    sys.exit(code)


def slope(points):
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def numeric_series(rows, xs):
    series = {}
    for x, row in zip(xs, rows):
        for group in ("model", "circuit", "metrics"):
            for k, v in (row.get(group) or {}).items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    series.setdefault(f"{group}.{k}", []).append((x, float(v)))
    return series


def claim_panels(rows, xs):
    """{(quantity, claimed, source): [(x, achieved, shape_value)]}, one panel per asymptotic claim."""
    panels = {}
    for x, row in zip(xs, rows):
        for c in row.get("claims", []):
            if "shape_value" not in c or not isinstance(c.get("achieved"), (int, float)):
                continue
            panels.setdefault((c["quantity"], c["claimed"], c["source"]), []).append(
                (x, float(c["achieved"]), float(c["shape_value"])))
    return panels


# Shown first in the "measured" panel when they change; the rest by growth rate.
PREFERRED = ["circuit.size", "circuit.depth", "model.L", "model.params_dense", "model.params_nonzero",
             "model.inner_N", "model.inner_d", "metrics.work", "metrics.state_bits"]


def fmt(s):
    return "n/a" if s is None else f"{s:.2f}"


STATUS_COLOR = {"consistent": "C2", "inconsistent": "C3", "met": "C2", "missed": "C3", "refuted": "C3"}


def fits_of(claim):
    """The fits of a ledger row: its `data` is one fit ({points, slope, ...}) or, since the ledger
    records evidence per fit (issue 24), a dict of named fits."""
    data = claim.get("data")
    if not isinstance(data, dict):
        return []
    if "slope" in data:
        return [("", data)]
    return [(name, f) for name, f in sorted(data.items()) if isinstance(f, dict) and "slope" in f]


def fit_series(data):
    """(x label, y label, [(x, y)]) of one fit, or None."""
    if not isinstance(data.get("points"), list):
        return None
    pts = data["points"]
    if not pts or not isinstance(pts[0], dict):
        return None
    xkey = data.get("x") if isinstance(data.get("x"), str) and data.get("x") in pts[0] else "x"
    ykey = data.get("y") if isinstance(data.get("y"), str) and data.get("y") in pts[0] else (
        "achieved" if "achieved" in pts[0] else "y")
    xy = [(float(p[xkey]), float(p[ykey])) for p in pts
          if isinstance(p.get(xkey), (int, float)) and isinstance(p.get(ykey), (int, float))
          and p[xkey] > 0 and p[ykey] > 0]
    if len(xy) < 2:
        return None
    xlabel = data.get("x") if isinstance(data.get("x"), str) else (data.get("x_is") or xkey)
    if isinstance(data.get("vary"), str):
        xlabel = f"{xlabel} (varying {data['vary']})"
    return xlabel, data.get("quantity", ykey), xy


def plot_claims(plt, ledger, out):
    claims = ledger["claims"] if isinstance(ledger, dict) else ledger
    rows = [(c, name, f, s) for c in claims for name, f in fits_of(c) for s in [fit_series(f)] if s]
    if not rows:
        fail("the ledger has no asymptotic rows with data: nothing to draw")
    cols = min(len(rows), 3)
    nrows = (len(rows) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.0 * cols, 4.3 * nrows), squeeze=False)
    axes = [a for row in axes for a in row]
    for ax in axes[len(rows):]:
        ax.set_visible(False)
    fig.suptitle("circuitzoo claims ledger: asymptotic rows (measured against the claimed shape)")
    for ax, (c, name, data, (xlabel, ylabel, xy)) in zip(axes, rows):
        status = c.get("status", "?")
        ax.plot([x for x, _ in xy], [y for _, y in xy], "o-", color=STATUS_COLOR.get(status, "black"), lw=2,
                label=f"measured: slope {fmt(data.get('slope'))} (tolerance {fmt(data.get('tolerance'))})")
        k = math.exp(sum(math.log(y / x) for x, y in xy) / len(xy))
        ax.plot([x for x, _ in xy], [k * x for x, _ in xy], "--", color="gray", label=f"claimed shape ×{k:.3g} (slope 1)")
        ident = c.get("id") or (f"row {c['row']}" if c.get("row") else "")
        fit = f" [{name}]" if name else ""
        ax.set_title(textwrap.fill(f"{ident}{fit}: {c.get('statement', '')} ({c.get('source', '')}) — {status}", 52), fontsize=7)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(textwrap.shorten(xlabel, 60), fontsize=7)
        ax.set_ylabel(textwrap.shorten(ylabel, 40), fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))  # room for the suptitle
    fig.savefig(out, dpi=110)
    return 0


def main(argv):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is not installed (Debian: apt-get install python3-matplotlib)")
    if argv[1:] == ["--check"]:
        return 0
    if len(argv) == 4 and argv[1] == "--claims":
        with open(argv[2]) as f:
            return plot_claims(plt, json.load(f), argv[3])
    if len(argv) != 3:
        fail("usage: plot.py SWEEP.json OUT.svg|png", 2)
    with open(argv[1]) as f:
        sweep = json.load(f)
    rows, key = sweep["rows"], sweep["vary"]
    if not rows or not all(isinstance(r["value"], (int, float)) for r in rows):
        fail(f"the varied parameter '{key}' is not numeric: nothing to draw on log-log axes")
    xs = [float(r["value"]) for r in rows]
    panels = claim_panels(rows, xs)
    series = {k: v for k, v in numeric_series(rows, xs).items()
              if len({y for _, y in v}) > 1 and all(y > 0 for _, y in v)}
    growing = [k for k in PREFERRED if k in series]
    growing += sorted((k for k in series if k not in growing), key=lambda k: (-(slope(series[k]) or 0), k))
    growing = growing[:8]
    n = len(panels) + (1 if growing else 0)
    if n == 0:
        fail("no quantity changes over the sweep: nothing to draw")
    cols = min(n, 3)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.0 * cols, 4.3 * nrows), squeeze=False)
    axes = [a for row in axes for a in row]
    for ax in axes[n:]:
        ax.set_visible(False)
    title_params = ", ".join(f"{k}={v}" for k, v in sorted(sweep.get("fixed", {}).items()))
    fig.suptitle(f'{sweep["construction"]}: sweep over {key}' + (f"  ({title_params})" if title_params else ""))
    for ax, ((q, claimed, source), pts) in zip(axes, sorted(panels.items())):
        ach = [(x, a) for x, a, _ in pts if a > 0]
        if ach:
            ax.plot([a for a, _ in ach], [b for _, b in ach], "o-", color="black", lw=2,
                    label=f"achieved ~ {key}^{fmt(slope(ach))}")
        ratios = [a / s for _, a, s in pts if s > 0 and a > 0]
        if ratios:
            c = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            shape = [(x, c * s) for x, _, s in pts if s > 0]
            ax.plot([a for a, _ in shape], [b for _, b in shape], "--", color="C3",
                    label=f"claimed {claimed} ×{c:.3g} ~ {key}^{fmt(slope(shape))}")
        ax.set_title(textwrap.fill(f"{q}: {claimed} ({source})", 48), fontsize=8)
    if growing:
        ax = axes[len(panels)]
        for i, k in enumerate(growing):
            pts = series[k]
            ax.plot([a for a, _ in pts], [b for _, b in pts], "o-", color=f"C{i}", ms=3,
                    label=f"{k} ~ {key}^{fmt(slope(pts))}")
        ax.set_title("measured quantities", fontsize=8)
    for ax in axes[:n]:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(key)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
