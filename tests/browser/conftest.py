"""Fixtures for the real-browser tests: Debian's Chromium driven by Playwright's Python API, and a Voila server.

Chromium comes from Debian: its headless shell (`apt-get install -y chromium-headless-shell`, done here when it is
missing and we run as root, as CI does), the same Blink as the `chromium` package without the desktop browser around
it. It is what Playwright itself runs for headless tests (its `playwright install` puts a headless shell beside each
Chromium build); Debian's full `chromium` in headless mode took about 1.7 times its CPU per workbench page load
(3.8-4.9 against 2.2-2.7 CPU-s), and also starts services of the desktop browser (an on-device model service, among
others). Playwright's own browser download is never used. Screenshots go to test-artifacts/ at the top of the project.
"""
import os
from pathlib import Path

import pytest
from _apt import apt_install
from _lab import finish_shutdowns, start_lab
from _servers import server_pythonpath, wait_for_stops

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_PACKAGE = "chromium-headless-shell"
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]


def _install_chromium():
    "Install Debian's Chromium headless shell when it is missing and we may (root, as in CI); otherwise skip the browser tests."
    if Path(CHROMIUM).exists(): return
    problem = apt_install(CHROMIUM_PACKAGE, CHROMIUM)
    if problem.endswith(f"install the '{CHROMIUM_PACKAGE}' package"): pytest.skip(problem)   # a developer machine without root
    if problem: pytest.fail(problem)


@pytest.fixture(scope="session")
def chromium():
    "A headless Chromium (Debian's) under Playwright (it runs on a temporary profile, never ~/.config)."
    from playwright import sync_api          # a dev dependency: missing means a broken install, not a skip
    _install_chromium()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module", autouse=True)
def server_site():
    """The Voila servers a browser test module starts (launch_workbench: they get this process's environment), and
    their kernels, find _servers.SERVER_SITE first on their PYTHONPATH; as the module ends, the environment is as it was."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYTHONPATH", server_pythonpath(os.environ.get("PYTHONPATH")))
        yield


@pytest.fixture(scope="session", autouse=True)
def servers_stopped():
    "At the session's end, every Voila and JupyterLab server the tests stopped in the background has stopped."
    yield
    left = wait_for_stops()
    assert not left, f"servers still running at the end of the session: {left}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    "One JupyterLab for the session's browser tests; each test module puts its notebooks in a folder of its own (_lab.lab_folder)."
    with start_lab(tmp_path_factory) as server:
        yield server
        finish_shutdowns(server)                 # the test modules' kernels, shut down at their end (_lab.LabFolder)
