"""The probe-verdict tool (tests/api_probes/oracle.py) runs the official headers' compiler under a memory cap: one probe
once drove it to 20 GB. Here a stand-in oracle (a check.sh that runs g++ on the file) shows that the cap holds, that
running out of it is an error naming the file (never a 'reject' verdict), and that a run within it gives the verdict."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "api_probes"))
import oracle  # noqa: E402


@pytest.fixture
def stand_in(tmp_path):
    (tmp_path / "check.sh").write_text('#!/bin/bash\nexec g++ -std=c++17 -fsyntax-only "$1"\n')
    return tmp_path


def test_a_verdict_within_the_cap(stand_in, tmp_path):
    good, bad = tmp_path / "good.cpp", tmp_path / "bad.cpp"
    good.write_text("int main() { return 0; }\n")
    bad.write_text("int main() { return undeclared; }\n")
    assert oracle.run_oracle(stand_in, good, dict(os.environ), memory_gb=4).returncode == 0
    assert oracle.run_oracle(stand_in, bad, dict(os.environ), memory_gb=4).returncode == 1


def test_running_out_of_the_cap_is_an_error_not_a_reject(stand_in, tmp_path):
    # the whole standard library in 80 MB: g++ exits 1 ("virtual memory exhausted"), as for a rejected probe
    src = tmp_path / "probe.cpp"
    src.write_text("#include <bits/stdc++.h>\nint main() { return 0; }\n")
    assert oracle.run_oracle(stand_in, src, dict(os.environ), memory_gb=4).returncode == 0
    with pytest.raises(RuntimeError, match=r"the oracle failed on probe\.cpp \(memory capped at 0\.08 GB"):
        oracle.run_oracle(stand_in, src, dict(os.environ), memory_gb=0.08)
    with pytest.raises(RuntimeError, match=r"the oracle failed on probe\.cpp"):     # not even the compiler starts
        oracle.run_oracle(stand_in, src, dict(os.environ), memory_gb=0.005)
