"""Fixtures for the real-browser tests: Debian's Chromium driven by Playwright's Python API, and a Voila server.

Chromium comes from Debian (`apt-get install -y chromium`, done here when it is missing and we run as root, as
CI does); Playwright's own browser download (`playwright install`) is never used. Screenshots go to
test-artifacts/ at the top of the project.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]


def _install_chromium():
    "Install Debian's chromium when it is missing (root only); skip the browser tests when that is impossible."
    if Path(CHROMIUM).exists(): return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(f"{CHROMIUM} is missing and cannot be installed here (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


@pytest.fixture(scope="session")
def chromium():
    "A headless Chromium (Debian's) under Playwright (it runs on a temporary profile, never ~/.config)."
    sync_api = pytest.importorskip("playwright.sync_api")
    _install_chromium()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
