"""The module refuses what the CLI refuses (issue 25, item 17): one row a case, the Python call
beside the CLI command line; both run the same C++ checks (app/cli/arg_checks.h), so the message
is the CLI's error line with the flag written as the Python keyword."""
import math

import pytest

import circuitzoo as cz

NAME = "primitive/identity"
SMALL = {"N": 2, "d": 1}


def model_with(layers):
    m = cz.build("primitive/cumsum", {"N": 4, "d": 1})["model"]
    m["layers"] = layers
    return m


def mqar(**kw):
    return lambda: cz.mqar_data(**{"examples": 4, **kw})


# name, Python call, the CLI's arguments (None: no CLI twin), {CLI flag: Python keyword}
VALUE_ERRORS = [
    ("samples-negative", lambda: cz.verify(NAME, samples=-5), ["verify", NAME, "--samples", "-5"], {"--samples": "samples"}),
    ("samples-zero", lambda: cz.verify(NAME, samples=0), ["verify", NAME, "--samples", "0"], {"--samples": "samples"}),
    ("threads-1e6", lambda: cz.verify(NAME, threads=10 ** 6), ["verify", NAME, "--threads", "1000000"], {"--threads": "threads"}),
    ("threads-1025", lambda: cz.verify(NAME, threads=1025), ["verify", NAME, "--threads", "1025"], {"--threads": "threads"}),
    ("threads-negative", lambda: cz.verify(NAME, threads=-1), ["verify", NAME, "--threads", "-1"], {"--threads": "threads"}),
    ("seed-negative", lambda: cz.verify(NAME, seed=-1), ["verify", NAME, "--seed", "-1"], {"--seed": "seed"}),
    ("seed-2^64", lambda: cz.verify(NAME, seed=2 ** 64), ["verify", NAME, "--seed", str(2 ** 64)], {"--seed": "seed"}),
    ("exhaustive-samples", lambda: cz.verify(NAME, samples=3, exhaustive=True), ["verify", NAME, "--exhaustive", "--samples", "3"],
     {"--exhaustive": "exhaustive", "--samples": "samples"}),
    ("device-tpu", lambda: cz.verify(NAME, device="tpu"), ["verify", NAME, "--device", "tpu"], {}),
    ("examples-zero", mqar(examples=0), ["mqar-data", "--examples", "0"], {"--examples": "examples"}),
    ("vocab-zero", mqar(vocab=0), ["mqar-data", "--vocab", "0"], {"--vocab": "vocab"}),
    ("seq-len-big", mqar(seq_len=2 ** 24 + 1), ["mqar-data", "--seq-len", str(2 ** 24 + 1)], {"--seq-len": "seq_len"}),
    ("kv-zero", mqar(kv=0), ["mqar-data", "--kv", "0"], {"--kv": "kv"}),
    ("data-seed-2^32", mqar(seed=2 ** 32), ["mqar-data", "--seed", str(2 ** 32)], {"--seed": "seed"}),
    ("power-a-zero", mqar(power_a=0), ["mqar-data", "--power-a", "0.0"], {"--power-a": "power_a"}),
    ("power-a-inf", mqar(power_a=math.inf), ["mqar-data", "--power-a", "inf"], {"--power-a": "power_a"}),
    ("power-a-nan", mqar(power_a=math.nan), ["mqar-data", "--power-a", "nan"], {"--power-a": "power_a"}),
    ("eval-layers-text", lambda: cz.eval(model_with("x"), [[1]] * 4), None, {}),
    ("eval-layer-not-dict", lambda: cz.eval(model_with([5]), [[1]] * 4), None, {}),
]

TYPE_ERRORS = [
    ("params-list", lambda: cz.verify(NAME, [1, 2])),
    ("params-text", lambda: cz.stats(NAME, "N=2")),
    ("samples-float", lambda: cz.verify(NAME, samples=2.5)),
    ("samples-text", lambda: cz.verify(NAME, samples="3")),
    ("threads-bool", lambda: cz.verify(NAME, threads=True)),
    ("examples-float", mqar(examples=4.0)),
    ("power-a-text", mqar(power_a="0.1")),
    ("eval-model-list", lambda: cz.eval([1, 2], [[1]])),
]


@pytest.mark.parametrize("name,call,cli_args,names", VALUE_ERRORS, ids=[r[0] for r in VALUE_ERRORS])
def test_refused_with_value_error_as_the_cli_refuses(name, call, cli_args, names, cli, tmp_path):
    with pytest.raises(ValueError) as e:
        call()
    if cli_args is None:  # the model reader's own message (model/model_json.cpp), as the CLI prints it
        assert "layer" in str(e.value)
        return
    if cli_args[0] == "mqar-data":
        cli_args = cli_args + ["--inputs", tmp_path / "i.npy", "--labels", tmp_path / "l.npy"]
    r = cli(*cli_args)
    assert r.returncode == 2, r.stderr
    want = r.stderr.strip()
    for flag, kw in names.items():
        want = want.replace(flag, kw)
    assert "error: " + str(e.value) == want


@pytest.mark.parametrize("name,call", TYPE_ERRORS, ids=[r[0] for r in TYPE_ERRORS])
def test_wrong_types_are_type_errors(name, call):
    with pytest.raises(TypeError):
        call()


def test_the_bounds_themselves_are_accepted():
    assert cz.verify(NAME, SMALL, threads=1024)["failed"] == 0
    assert cz.verify(NAME, SMALL, samples=1, seed=2 ** 64 - 1)["instances"] == 1
    inputs, labels = cz.mqar_data(examples=1, seed=2 ** 32 - 1)
    assert inputs.shape == labels.shape == (1, 64)
