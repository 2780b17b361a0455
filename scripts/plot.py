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


MARKERS = ["o", "s", "^", "v", "D", "P", "X", "*"]
STYLES = ["-", "--", "-.", ":"]


def plain(v, _pos=None):
    """Tick label: plain numbers (20, 300, 0.5), powers of ten as 10^k past 10^4 (never 2×10⁰)."""
    if v <= 0:
        return ""
    e = math.log10(v)
    if abs(e - round(e)) < 1e-9 and (e >= 4 or e <= -3):
        return f"$10^{{{int(round(e))}}}$"
    if 1e-3 <= v < 1e4:
        return f"{v:g}"
    m = v / 10 ** math.floor(e)
    return f"${m:g}\\cdot10^{{{int(math.floor(e))}}}$"


def style_log_axes(ax, xs, ys, xlabel, ylabel):
    """Log-log axes whose limits hold every point (with a margin), labelled, with readable ticks:
    1-2-5 ticks when the data span less than two decades, powers of ten otherwise."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis, vals, setlim in ((ax.xaxis, xs, ax.set_xlim), (ax.yaxis, ys, ax.set_ylim)):
        vals = [v for v in vals if v > 0 and math.isfinite(v)]
        if not vals:
            continue
        lo, hi = min(vals), max(vals)
        span = math.log10(hi / lo)
        pad = max(0.08 * span, (0.8 - span) / 2)  # at least 0.8 decades shown, so ticks fall inside
        lo, hi = lo / 10 ** pad, hi * 10 ** pad
        setlim(lo, hi)
        subs = (1.0, 2.0, 5.0) if math.log10(hi / lo) < 2 else (1.0,)
        axis.set_major_locator(LogLocator(base=10, subs=subs))
        axis.set_major_formatter(FuncFormatter(plain))
        axis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.tick_params(labelsize=8)
    ax.grid(True, which="both", alpha=0.3)


def legend_below(ax, ncol=1):
    """The legend under the axes, so it never covers a point."""
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=ncol, frameon=False)


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


def accepted(rule, tol, lo, hi):
    """The slopes a fit's rule accepts, as (from, to) within the axis [lo, hi]; None if unknown."""
    rule = rule or ""
    if not isinstance(tol, (int, float)):
        return None
    if rule.startswith("O(1)"):
        return lo, tol
    if rule.startswith("Theta"):
        return 1 - tol, 1 + tol
    if rule.startswith("Omega"):
        return 1 - tol, hi
    if rule.startswith("O("):
        return lo, 1 + tol
    return None


def plot_claims(plt, ledger, out):
    """One chart, one line per asymptotic fit of the ledger: the fitted log-log slope (of the
    measured quantity against the claimed shape; O(1) rows: against the size), the slopes the
    fit's rule accepts as a grey bar, the point coloured by the row's computed status (a row with
    several fits, or other evidence, can be inconsistent while one of its fits lies in its bar)."""
    from matplotlib.lines import Line2D
    claims = ledger["claims"] if isinstance(ledger, dict) else ledger
    rows = [(c, name, f, s) for c in claims for name, f in fits_of(c) for s in [fit_series(f)] if s]
    rows = [r for r in rows if isinstance(r[2].get("slope"), (int, float))]
    if not rows:
        fail("the ledger has no asymptotic rows with data: nothing to draw")
    lo = min(-0.2, min(float(r[2]["slope"]) for r in rows) - 0.2)
    hi = max(2.0, max(float(r[2]["slope"]) for r in rows) + 0.7)
    h = 1.8 + 0.4 * len(rows)
    fig, ax = plt.subplots(figsize=(12, h))
    labels = []
    for y, (c, name, data, (xlabel, ylabel, xy)) in enumerate(rows):
        status = c.get("status", "?")
        color = STATUS_COLOR.get(status, "black")
        sl, rule = float(data["slope"]), str(data.get("rule", ""))
        band = accepted(rule, data.get("tolerance"), lo, hi)
        if band:
            ax.plot(band, [y, y], color="0.82", lw=7, solid_capstyle="butt", zorder=1)
        # marker: what the status is about (ledger "subject"): a circle for our construction
        # measured against the paper's bound, a square for a check of the paper's own statement
        marker = "s" if c.get("subject") == "the paper" else "o"
        ax.plot([sl], [y], marker, color=color, ms=8, zorder=3)
        short = rule.split(",")[0].replace("Theta", "Θ").replace("Omega", "Ω").replace("tol", f"{data.get('tolerance')}")
        ax.annotate(f"{sl:.2f}  {status}  ({short}; {len(xy)} sizes)", (sl, y), xytext=(9, 0),
                    textcoords="offset points", va="center", fontsize=8, color=color)
        ident = c.get("id") or (f"row {c['row']}" if c.get("row") else "")
        fit = f" [{name}]" if name else ""
        labels.append(textwrap.shorten(f"{ident}{fit}: {ylabel} — {c.get('statement', '')}", 75))
    ax.axvline(1.0, color="gray", ls="--", lw=1)
    ax.axvline(0.0, color="gray", ls=":", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(lo, hi)
    ax.set_xlabel("fitted log-log slope (1: grows exactly like the claimed shape; O(1) rows: slope against the size)",
                  fontsize=9)
    ax.tick_params(axis="x", labelsize=9)
    ax.grid(True, axis="x", alpha=0.3)
    handles = [Line2D([], [], marker="o", ls="", color=STATUS_COLOR[k], label=f"row {k}") for k in ("consistent", "inconsistent")]
    handles.append(Line2D([], [], color="0.82", lw=7, label="slopes the fit's rule accepts"))
    handles.append(Line2D([], [], marker="o", ls="", color="black", label="about our construction (vs the paper's bound)"))
    handles.append(Line2D([], [], marker="s", ls="", color="black", label="about the paper's own statement"))
    ax.legend(handles=handles, fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.suptitle("circuitzoo claims ledger: asymptotic rows, fitted slope against the claimed shape", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110, bbox_inches="tight")
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
    # A quantity drawn in the measured panel has a positive number at every size (a saturated
    # value such as formal_degree's ">=2^63" leaves a gap, and a fit on the rest would mislead).
    series = {k: v for k, v in numeric_series(rows, xs).items()
              if len(v) == len(xs) and len({y for _, y in v}) > 1 and all(y > 0 for _, y in v)}
    growing = [k for k in PREFERRED if k in series]
    growing += sorted((k for k in series if k not in growing), key=lambda k: (-(slope(series[k]) or 0), k))
    growing = growing[:8]
    n = len(panels) + (1 if growing else 0)
    if n == 0:
        fail("no quantity changes over the sweep: nothing to draw")
    cols = min(n, 3)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 5.4 * nrows), squeeze=False)
    axes = [a for row in axes for a in row]
    for ax in axes[n:]:
        ax.set_visible(False)
    title_params = ", ".join(f"{k}={v}" for k, v in sorted(sweep.get("fixed", {}).items()))
    fig.suptitle(f'{sweep["construction"]}: sweep over {key}' + (f"  ({title_params})" if title_params else ""))
    for ax, ((q, claimed, source), pts) in zip(axes, sorted(panels.items())):
        ach = [(x, a) for x, a, _ in pts if a > 0]
        ys = [a for _, a in ach]
        if ach:
            ax.plot([a for a, _ in ach], [b for _, b in ach], "o-", color="black", lw=2, ms=5, zorder=3,
                    label=f"achieved ~ {key}^{fmt(slope(ach))}")
        ratios = [a / s for _, a, s in pts if s > 0 and a > 0]
        if ratios:
            c = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            shape = [(x, c * s) for x, _, s in pts if s > 0]
            ys += [b for _, b in shape]
            # hollow squares on top: visible even where the scaled shape runs on the achieved line
            ax.plot([a for a, _ in shape], [b for _, b in shape], "s--", color="C3", ms=8, mfc="none", mew=1.5, zorder=4,
                    label=f"claimed {claimed} ×{c:.3g} ~ {key}^{fmt(slope(shape))}")
        ax.set_title(textwrap.fill(f"{q}: {claimed} ({source})", 48), fontsize=9)
        style_log_axes(ax, xs, ys, key, q)
        legend_below(ax)
    if growing:
        ax = axes[len(panels)]
        # Series with the same points are drawn once, under one label; the rest each get their
        # own marker and line style, so lines that run together stay distinguishable.
        groups = {}
        for k in growing:
            groups.setdefault(tuple(series[k]), []).append(k)
        ys = []
        for i, (pts, names) in enumerate(groups.items()):
            ys += [b for _, b in pts]
            ax.plot([a for a, _ in pts], [b for _, b in pts], color=f"C{i}", marker=MARKERS[i % len(MARKERS)],
                    ls=STYLES[i % len(STYLES)], ms=5, mfc="none", label=f"{' = '.join(names)} ~ {key}^{fmt(slope(list(pts)))}")
        ax.set_title("measured quantities", fontsize=9)
        style_log_axes(ax, xs, ys, key, "value")
        legend_below(ax)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
