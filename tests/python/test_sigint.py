"""Ctrl-C in a long call (issue 26 item 3): SIGINT one second into a long verify must surface as
KeyboardInterrupt within about a second (the engine polls after each block), not after the run."""
import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import sys, time
import circuitzoo as cz
print("started", flush=True)
try:
    cz.verify("mqar/dyadic", {"n": 4, "c": 6}, exhaustive=True, threads=1)  # ~minutes on one thread
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def interrupt(child, after, timeout):
    """Runs child, sends SIGINT `after` seconds past its "started" line: (its output, seconds until it ended)."""
    p = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(after)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=timeout)
        return out, time.monotonic() - t0
    finally:
        if p.poll() is None:
            p.kill()


def test_sigint_raises_keyboard_interrupt_quickly():
    out, waited = interrupt(CHILD, 1.0, 30)
    assert out.strip() == "interrupted"
    assert waited < 2.0, f"KeyboardInterrupt came {waited:.2f} s after SIGINT"


SAT_CHILD = r"""
import circuitzoo as cz
print("started", flush=True)
try:
    # mqar/dyadic n=64 c=64 on one thread: its stages run for about a minute (n=16 now proves in
    # half a second, before the signal came)
    cz.verify("mqar/dyadic", {"n": 64, "c": 64}, method="sat", threads=1)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_sigint_stops_a_sat_proof_and_its_solver():
    out, waited = interrupt(SAT_CHILD, 1.5, 60)
    assert out.strip() == "interrupted"
    assert waited < 2.0, f"KeyboardInterrupt came {waited:.2f} s after SIGINT"
