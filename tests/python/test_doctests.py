"""Issue 49 item 18: every public callable of circuitzoo (its __all__, and the methods of Circuit)
shows a call as a `>>>` example, and the examples run (doctest, in a fresh temporary directory:
the examples that write files write them there); so do circuitzoo.torch's main entry points."""
import doctest
import inspect
import os

import pytest

import circuitzoo as cz

_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _public():
    out = []
    for name in cz.__all__:
        obj = getattr(cz, name)
        out.append((name, obj))
        if inspect.isclass(obj):
            out += [(f"{name}.{m}", f) for m, f in vars(obj).items() if not m.startswith("_") and callable(f)]
    return out


def _examples(obj, name):
    return [t for t in doctest.DocTestFinder(recurse=False).find(obj, name, globs={"cz": cz}) if t.examples]


@pytest.mark.parametrize("name,obj", _public(), ids=[n for n, _ in _public()])
def test_public_callable_has_a_runnable_example(name, obj, tmp_path, monkeypatch):
    tests = _examples(obj, name)
    assert tests, f"circuitzoo.{name} has no >>> example in its docstring"
    monkeypatch.chdir(tmp_path)
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    for t in tests:
        t.globs = {"cz": cz}
        runner.run(t)
    assert runner.failures == 0, f"circuitzoo.{name}: {runner.failures} example(s) failed (output above)"


def test_torch_examples_run(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch")  # installed where these tests run (Debian's python3-torch)
    import circuitzoo.torch as czt
    monkeypatch.chdir(tmp_path)
    names = ["load", "from_model_json", "import_zoology", "to_model_json", "exact_input", "dyadic"]
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    for name in names:
        tests = _examples(getattr(czt, name), name)
        assert tests, f"circuitzoo.torch.{name} has no >>> example"
        for t in tests:
            t.globs = {"cz": cz, "czt": czt, "torch": torch}
            runner.run(t)
    assert runner.failures == 0
