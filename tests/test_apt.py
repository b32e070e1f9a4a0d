"""The tests' own package installer (tests/_apt.py): two xdist workers that find the same package missing install it
once, one after the other, instead of the second failing on dpkg's lock (seen on a fresh machine: the 11 browser
tests of one worker errored with "Could not get lock /var/lib/dpkg/lock-frontend")."""
import subprocess
import threading
import time

import _apt


class FakeApt:
    "dpkg-query and apt-get as far as apt_install sees them: the package appears when an install finishes."
    def __init__(self):
        self.present, self.running, self.overlaps, self.commands = False, 0, 0, []
        self.guard = threading.Lock()

    def run(self, command, **kwargs):
        if command[0] == "dpkg-query":
            status = "install ok installed" if self.present else "unknown ok not-installed"
            return subprocess.CompletedProcess(command, 0 if self.present else 1, status, "")
        with self.guard:
            self.commands.append(command)
            self.running += 1
            if self.running > 1: self.overlaps += 1
        time.sleep(0.2)                                 # an install takes time: a second caller arrives meanwhile
        with self.guard:
            self.running -= 1
            if "install" in command: self.present = True
        return subprocess.CompletedProcess(command, 0, "", "")


def test_two_workers_installing_the_same_package_take_turns_and_install_it_once(monkeypatch, tmp_path):
    fake = FakeApt()
    monkeypatch.setattr(_apt.subprocess, "run", fake.run)
    monkeypatch.setattr(_apt, "LOCK", tmp_path / "apt.lock")
    monkeypatch.setattr(_apt.os, "geteuid", lambda: 0)
    monkeypatch.setattr(_apt.shutil, "which", lambda name: f"/usr/bin/{name}")
    results = []
    workers = [threading.Thread(target=lambda: results.append(_apt.apt_install("chromium", "/usr/bin/chromium")))
               for _ in range(2)]
    for w in workers: w.start()
    for w in workers: w.join(10)
    assert results == ["", ""]
    assert fake.overlaps == 0                                        # never two apt-get runs at once
    installs = [c for c in fake.commands if "install" in c]
    assert len(installs) == 1 and installs[0][-1] == "chromium"     # the second worker found it installed
    assert all("DPkg::Lock::Timeout=600" in c for c in fake.commands)  # and an installer not ours is waited for


def test_a_failed_install_says_which_command_failed(monkeypatch, tmp_path):
    def run(command, **kwargs):
        if command[0] == "dpkg-query": return subprocess.CompletedProcess(command, 1, "", "")
        code = 100 if "install" in command else 0
        return subprocess.CompletedProcess(command, code, "", "E: Unable to locate package nosuch" if code else "")
    monkeypatch.setattr(_apt.subprocess, "run", run)
    monkeypatch.setattr(_apt, "LOCK", tmp_path / "apt.lock")
    monkeypatch.setattr(_apt.os, "geteuid", lambda: 0)
    monkeypatch.setattr(_apt.shutil, "which", lambda name: f"/usr/bin/{name}")
    problem = _apt.apt_install("nosuch", "nosuch")
    assert problem.startswith("apt-get -o DPkg::Lock::Timeout=600 install -y -qq nosuch failed")
    assert "Unable to locate package nosuch" in problem


def test_without_root_it_names_the_package_to_install(monkeypatch):
    monkeypatch.setattr(_apt.os, "geteuid", lambda: 1000)
    assert _apt.apt_install("chromium", "/usr/bin/chromium").endswith("install the 'chromium' package")
