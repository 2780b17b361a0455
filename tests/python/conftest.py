import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))


@pytest.fixture
def cli():
    """Runs the circuitzoo binary: cli(*args) -> CompletedProcess (text)."""
    exe = os.environ["CZ_CLI"]

    def run(*args, env=None):
        return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, env=env)
    return run
