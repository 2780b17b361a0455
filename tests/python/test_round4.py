"""Issue 46 item 15: the module's refusals (a clear TypeError/ValueError, never a KeyError or a
silent "every task")."""
import pytest

import circuitzoo as cz


def test_equiv_none_is_a_type_error(tmp_path):
    p = str(tmp_path / "c.json")
    cz.export("primitive/shift_down", {"N": 2, "d": 1, "s": 1}, format="circuit-json", out=p)
    with pytest.raises(TypeError, match="equiv needs another circuit"):
        cz.read_circuit(p).equiv(None)


def test_empty_task_name_is_refused():
    with pytest.raises(ValueError, match="must not be empty"):
        cz.tasks("")
    assert isinstance(cz.tasks(), list)
