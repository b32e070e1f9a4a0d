"""Stopping the browser tests' Voila and JupyterLab servers without waiting for them.

A server stops gracefully: it shuts its kernels down, which took 5-10 s per server in the suite (about a minute over
the browser tests). The tests after it do not need it gone, so `stopped_later` stops it in a background thread while
the next test runs; the session waits for every stop at its end (`tests/browser/conftest.py`), so no server outlives
the run and a stop that fails or hangs still fails the session."""
from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

SERVER_SITE = Path(__file__).resolve().parent / "_server_site"   # first on the servers' PYTHONPATH (its rfc3987_syntax.py says why)
STOPPING: list[tuple[threading.Thread, object]] = []


def stop_later(server) -> None:
    "Stop `server` (anything with `stop()` and `process`) in a background thread, noted for the session's end."
    thread = threading.Thread(target=server.stop, name=f"stop {getattr(server, 'url', server)}", daemon=True)
    thread.start()
    STOPPING.append((thread, server))


@contextlib.contextmanager
def stopped_later(server):
    "Use `server` (e.g. `launch_workbench(..., block=False)`); on leaving, `stop_later` it."
    try: yield server
    finally: stop_later(server)


def wait_for_stops(timeout: float = 60.0) -> list[str]:
    "Wait for every background stop; return the servers still running afterwards (empty when all stopped)."
    left = []
    while STOPPING:
        thread, server = STOPPING.pop(0)
        thread.join(timeout)
        if thread.is_alive() or server.process.poll() is None: left.append(f"{getattr(server, 'url', server)}")
    return left


def server_pythonpath(pythonpath: str | None) -> str:
    "`pythonpath` (a PYTHONPATH value, or None) with SERVER_SITE in front: for the servers the browser tests start."
    return os.pathsep.join([str(SERVER_SITE), *([pythonpath] if pythonpath else [])])
