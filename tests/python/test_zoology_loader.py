"""examples/zoology_import.py against a plain zoology checkout (issue 39): its requirements are imported
as installed first, stand-ins are used only for missing ones (and said so), a missing one without a
stand-in stops with the package named, and an unknown --mixers name is refused (exit 2).
CZ_PEERS: zoology/ (the pinned checkout) and shims/ (stand-ins), as run.py --peers passes it."""
import os
import subprocess
import sys
import textwrap

import zoology_import as zi  # examples/ (conftest.py puts it on sys.path)

PEERS = os.environ["CZ_PEERS"]
CHECKOUT, SHIMS = os.path.join(PEERS, "zoology"), os.path.join(PEERS, "shims")
EXAMPLES = os.path.dirname(zi.__file__)


def test_unknown_mixer_is_refused(capsys):
    assert zi.main(["--mixers", "Hyena,Hyena order=3", "--zoology", CHECKOUT]) == 2
    err = capsys.readouterr().err
    assert "unknown mixer 'Hyena order=3'" in err and "known: BaseConv short" in err and "(--mixers)" in err
    assert zi.main(["--mixers", ""]) == 2  # nothing named is not "everything"


def _run(code, pythonpath=""):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [pythonpath, EXAMPLES])))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          timeout=120)


def test_stand_ins_only_for_what_is_missing():
    """This interpreter as it is: the notes name exactly the requirements that are not installed; without
    --shims a missing einops/opt_einsum stops with its name; with them, zoology's classes load."""
    r = _run(f"""
        import importlib.util, sys, zoology_import as zi
        missing = [m for m in ("pydantic", "einops", "opt_einsum") if importlib.util.find_spec(m) is None]
        print("MISSING", ",".join(missing))
        try:
            zi.load_zoology({CHECKOUT!r}, None)
            print("NO-SHIMS loaded")
        except zi.ZoologyMissing as e:
            print("NO-SHIMS refused:", e)
        notes = []
        Z = zi.load_zoology({CHECKOUT!r}, {SHIMS!r}, log=notes.append)
        print("NOTES", notes)
        print("CLASSES", sorted(c.__module__ for c in Z.values()))
    """)
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    missing = lines.get("MISSING", "").split(",") if lines.get("MISSING") else []
    notes = eval(lines["NOTES"])
    for m in ("einops", "opt_einsum"):
        assert any(n.startswith(f"{m} is not installed") for n in notes) == (m in missing), (m, notes)
    assert any("pydantic 2 is not installed" in n for n in notes) or "pydantic" not in missing, notes
    if "einops" in missing or "opt_einsum" in missing:
        assert "refused" in lines["NO-SHIMS"] and "pip install" in lines["NO-SHIMS"], lines["NO-SHIMS"]
    assert eval(lines["CLASSES"]) == ["zoology.mixers.base_conv", "zoology.mixers.h3.h3", "zoology.mixers.hyena",
                                      "zoology.mixers.rwkv"]


def test_installed_requirements_win_over_stand_ins(tmp_path):
    """A user with pydantic 2, einops and opt_einsum installed (here: packages of that name first on the
    path): they are the ones zoology gets, nothing is stood in for, with or without --shims."""
    for name, body in {"pydantic": "VERSION = '2.99'\nused = []\ndef validate_call(func=None, **kw):\n"
                                   "    used.append(func)\n    return func if func is not None else (lambda f: f)\n",
                       "einops": "def rearrange(*a, **k): raise NotImplementedError\nrepeat = rearrange\n",
                       "opt_einsum": "def contract(*a, **k): raise NotImplementedError\n"}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(body)
    r = _run(f"""
        import sys, zoology_import as zi
        for shims in (None, {SHIMS!r}):
            notes = []
            Z = zi.load_zoology({CHECKOUT!r}, shims, log=notes.append)
            assert notes == [], notes
        import pydantic, einops, zoology.mixers.base_conv as bc
        assert einops.__file__.startswith({str(tmp_path)!r}), einops.__file__
        assert bc.rearrange is einops.rearrange
        assert pydantic.used, "zoology's @validate_call did not go through the installed pydantic"
        print("OK", len(pydantic.used))
    """, pythonpath=str(tmp_path))
    assert r.returncode == 0 and r.stdout.startswith("OK"), r.stdout + r.stderr
