"""One JupyterLab server for the session's browser tests (the `jupyterlab` fixture in conftest.py), each test file's
notebooks in a folder of their own.

Starting JupyterLab took 9-21 s of a test's setup at load 11-16, once per test file that uses it (the walkthrough,
test_workbench_browser, test_wb_views_browser); with `--dist loadfile` at least two of the three share an xdist worker,
and so this server. What one file does must not show in another's:
- files: `lab_folder` gives each test module a new folder under the server's root for its notebooks, so each
  notebook has its own kernel (a kernel starts in its notebook's folder) and the workbench's saved session
  (wb_state, kept under the kernel's working folder) is the module's own, as it was with a server per file;
- the page: JupyterLab restores its workspace (the open documents and layout) when its page loads. Every test opens
  its notebook with `reset` (an empty workspace), and the walkthrough's reload without it follows in the same test,
  with no other test between (an xdist worker runs its tests one after another, and each worker has its own server),
  so a reload restores only the test's own notebook, as with a server per file;
- kernels: at the module's end its notebooks' kernels are shut down (in the background, as servers stop), so they do
  not run on until the session's end; the session waits for those shutdowns before it stops the server."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from _servers import server_pythonpath, stopped_later

LAB_TOKEN = "workbench-test"
LONG = 240_000


def notebook(*lines: str) -> dict:
    "A one-cell notebook (Python 3 kernel) whose cell holds `lines`."
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": "open", "metadata": {}, "outputs": [],
                       "source": [line + "\n" for line in lines]}],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def start_lab(tmp_path_factory):
    """JupyterLab on a free port, serving a new, empty folder (`server.root`); a context manager that gives the running
    server. Its kernels start in their notebook's folder."""
    from ascendcraft.workbench import free_port, WorkbenchServer
    root = tmp_path_factory.mktemp("lab")
    settings = tmp_path_factory.mktemp("lab-settings")
    news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false", "checkForUpdates": false}')     # no toast over the screenshot
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path_factory.mktemp("lab-workspaces")),
           "JUPYTER_CONFIG_DIR": str(tmp_path_factory.mktemp("lab-config")),
           "PYTHONPATH": server_pythonpath(os.environ.get("PYTHONPATH"))}   # the session's server: before any module's server_site
    port = free_port()
    log = tmp_path_factory.mktemp("lab-log") / "lab.log"
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
                                    f"--port={port}", f"--IdentityProvider.token={LAB_TOKEN}", f"--ServerApp.root_dir={root}"],
                                   cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = WorkbenchServer(process, "127.0.0.1", port, tmp_path_factory.mktemp("lab-unused"), log)
    server.root, server.shutting = root, []
    return stopped_later(server.ready(120))


@dataclass
class LabFolder:
    "A test module's folder on the session's JupyterLab: its notebooks, and their addresses."
    server: object
    name: str                          # the folder, relative to the server's root

    @property
    def url(self) -> str: return self.server.url

    def address(self, notebook: str, reset: bool = False) -> str:
        "The address opening `notebook` (relative to the folder); `reset` starts JupyterLab's workspace empty."
        return f"{self.server.url}lab/tree/{self.name}/{notebook}?token={LAB_TOKEN}" + ("&reset" if reset else "")

    def shut_kernels_down(self):
        """Shut down (in the background) the kernels of this folder's notebooks, as a user closing them would; the
        thread is kept in the server's `shutting` for the session's end (`finish_shutdowns`)."""
        def shut():
            headers = {"Authorization": f"token {LAB_TOKEN}"}
            with urllib.request.urlopen(urllib.request.Request(f"{self.url}api/sessions", headers=headers), timeout=30) as r:
                sessions = json.load(r)
            for s in sessions:
                if s["path"].startswith(self.name + "/"):
                    urllib.request.urlopen(urllib.request.Request(f"{self.url}api/sessions/{s['id']}", method="DELETE",
                                                                  headers=headers), timeout=60).close()
        thread = threading.Thread(target=shut, name=f"kernels of {self.name}", daemon=True)
        thread.start()
        self.server.shutting.append(thread)


def finish_shutdowns(server, timeout: float = 60.0):
    "Wait for the kernel shutdowns `LabFolder.shut_kernels_down` started on `server` (before the server stops)."
    for thread in server.shutting: thread.join(timeout)


def lab_folder(jupyterlab, request, notebooks: dict):
    """A new folder on the session's JupyterLab for `request`'s module, holding `notebooks` ({relative path:
    notebook}); a generator for a module-scoped fixture (its kernels are shut down at the module's end)."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    for path, content in notebooks.items():
        (jupyterlab.root / name / path).parent.mkdir(parents=True, exist_ok=True)
        (jupyterlab.root / name / path).write_text(json.dumps(content))
    folder = LabFolder(jupyterlab, name)
    yield folder
    folder.shut_kernels_down()


def open_notebook(page, lab: LabFolder, name: str):
    "Open notebook `name` of `lab` in JupyterLab (its workspace reset) and run its cell (Shift+Enter) once its kernel is idle."
    from playwright.sync_api import expect
    page.goto(lab.address(name, reset=True), timeout=LONG)
    expect(page.locator("#jp-main-statusbar").get_by_text("Idle")).to_be_visible(timeout=LONG)
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Shift+Enter")
