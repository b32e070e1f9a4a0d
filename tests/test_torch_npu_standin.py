"""AscendCraft's torch_npu stand-in (ascendcraft/runtime/torch_npu_standin): a PyTorch extension of our own
(tests/torch_ext: one kernel file, bound with pybind11 and with TORCH_LIBRARY for the npu device) built by the
stand-in and run from a test script as torch_npu users run theirs, its kernel launches on the emulator. A correct
kernel passes its assertRtolEqual; a kernel that writes past its output stops with gm-out-of-bounds naming the buffer;
a kernel that writes nothing, or a CPU tensor handed to the kernel, is an error, never a pass. The scripts run in
their own processes (the stand-in renames PyTorch's PrivateUse1 backend for the process)."""
import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ascendcraft

STANDIN = Path(ascendcraft.__file__).parent / "runtime" / "torch_npu_standin"
EXT = Path(__file__).parent / "torch_ext"
REPO = Path(ascendcraft.__file__).parent.parent


def _emulation_module():
    "torch_npu._ascendcraft alone (its text transforms need neither torch nor the npu device)."
    spec = importlib.util.spec_from_file_location("standin_ascendcraft", STANDIN / "torch_npu" / "_ascendcraft.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(STANDIN), str(REPO), os.environ.get("PYTHONPATH", "")]))


def _python(args: list[str], cwd: Path, timeout: int = 1800) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    "The extension built twice from its own files: the pybind11 module fw_pybind and the library libfw_library.so."
    out = tmp_path_factory.mktemp("fw_ext")
    for name, binding, kind in (("fw_pybind", "fw_add_pybind.cpp", []), ("fw_library", "fw_add_library.cpp", ["--library"])):
        made = _python(["-m", "torch_npu._ascendcraft_build", "build-ext", "--name", name, *kind, str(EXT / "fw_add.asc"),
                        str(EXT / binding), "-o", str(out)], out)
        assert made.returncode == 0, made.stdout + made.stderr
    return out


SCRIPT_HEAD = """
import os, sys
import torch
import torch_npu
from torch_npu.testing.testcase import TestCase, run_tests
sys.path.append(os.getcwd())
"""


def _run_script(folder: Path, body: str) -> subprocess.CompletedProcess:
    (folder / "script_test.py").write_text(SCRIPT_HEAD + textwrap.dedent(body))
    return _python(["script_test.py"], folder)


@pytest.mark.slow   # builds the extensions: g++ on torch's headers, minutes on a cold cache
def test_pybind_extension_passes_its_test(built):
    got = _run_script(built, """
        import fw_pybind

        class TestAdd(TestCase):
            def test_add(self):
                x = torch.rand([8, 256], dtype=torch.float32)
                y = torch.rand([8, 256], dtype=torch.float32)
                out = fw_pybind.add(x.npu(), y.npu())
                self.assertEqual(out.device.type, "npu")
                self.assertRtolEqual(out.cpu(), x + y)

        if __name__ == "__main__":
            run_tests()
    """)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "add_floats<0><<<4>>> ran on the emulator" in got.stderr
    assert "OK" in got.stderr.splitlines()[-1]


@pytest.mark.slow
def test_torch_library_extension_passes_and_dispatches_npu(built):
    got = _run_script(built, """
        torch.ops.load_library("libfw_library.so")

        class TestAdd(TestCase):
            def test_add(self):
                x = torch.rand([4, 512], dtype=torch.float32)
                y = torch.rand([4, 512], dtype=torch.float32)
                self.assertRtolEqual(torch.ops.fw_library.add(x.npu(), y.npu()).cpu(), x + y)

            def test_cpu_tensors_have_no_kernel(self):
                # TORCH_LIBRARY_IMPL(..., PrivateUse1, ...): CPU tensors find no kernel, as with torch_npu
                with self.assertRaisesRegex(NotImplementedError, "CPU"):
                    torch.ops.fw_library.add(torch.rand(1024), torch.rand(1024))

        if __name__ == "__main__":
            run_tests()
    """)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "Ran 2 tests" in got.stderr


@pytest.mark.slow
def test_kernel_writing_past_its_output_stops_named(built):
    got = _run_script(built, """
        import fw_pybind
        torch.ops.load_library("libfw_library.so")
        x, y = torch.rand(1024).npu(), torch.rand(1024).npu()
        for call in (fw_pybind.add_past_the_end, torch.ops.fw_library.add_past_the_end):
            try:
                call(x, y)
                print("NO ERROR")
            except RuntimeError as e:
                print("RAISED", str(e).splitlines()[0])
    """)
    raised = [l for l in got.stdout.splitlines() if l.startswith(("RAISED", "NO ERROR"))]
    assert len(raised) == 2, got.stdout + got.stderr
    for line in raised:   # through pybind11 and through the dispatcher alike
        assert line.startswith("RAISED") and "gm-out-of-bounds" in line and "'z'" in line, line


@pytest.mark.slow
def test_blocks_writing_each_others_output_race(built):
    got = _run_script(built, """
        import fw_pybind
        try:
            fw_pybind.add_overlap(torch.rand(1024).npu(), torch.rand(1024).npu())
            print("NO ERROR")
        except RuntimeError as e:
            print("RAISED", str(e).splitlines()[0])
    """)
    assert "RAISED" in got.stdout and "gm-overlap" in got.stdout and "'z'" in got.stdout, got.stdout + got.stderr


@pytest.mark.slow
def test_kernel_writing_nothing_is_an_error_not_a_pass(built):
    got = _run_script(built, """
        import fw_pybind

        class TestAdd(TestCase):
            def test_add(self):
                x, y = torch.rand(1024), torch.rand(1024)
                self.assertRtolEqual(fw_pybind.add_no_write(x.npu(), y.npu()).cpu(), x + y)

        if __name__ == "__main__":
            run_tests()
    """)
    assert got.returncode != 0
    assert "no-output" in got.stderr and "FAILED (errors=1)" in got.stderr, got.stderr


@pytest.mark.slow
def test_cpu_tensor_handed_to_the_kernel_is_refused(built):
    got = _run_script(built, """
        import fw_pybind
        try:
            fw_pybind.add(torch.rand(1024), torch.rand(1024))
            print("NO ERROR")
        except RuntimeError as e:
            print("RAISED", e)
    """)
    assert "RAISED argument 'x'" in got.stdout and "points into no npu allocation" in got.stdout, got.stdout + got.stderr


@pytest.mark.slow
def test_assert_rtol_equal_as_torch_npu_uses_it(tmp_path):
    got = _run_script(tmp_path, """
        import numpy as np

        class TestRtol(TestCase):
            def test_close_half_passes(self):
                x = torch.rand(1000).half()
                self.assertRtolEqual(x, x * (1 + 5e-4))

            def test_off_fails(self):
                with self.assertRaisesRegex(AssertionError, "result error"):
                    self.assertRtolEqual(torch.ones(100), torch.ones(100) * 1.01)

            def test_few_outliers_are_allowed(self):   # at most a `prec` fraction of the elements may be off
                a = torch.zeros(100000)
                b = a.clone(); b[:5] = 1.0
                self.assertRtolEqual(a, b)
                b[:20] = 1.0
                with self.assertRaises(AssertionError):
                    self.assertRtolEqual(a, b)

            def test_dtype_and_shape_must_agree(self):
                with self.assertRaisesRegex(AssertionError, "dtype error"):
                    self.assertRtolEqual(torch.ones(4), torch.ones(4).half())
                with self.assertRaisesRegex(AssertionError, "shape error"):
                    self.assertRtolEqual(torch.ones(4), torch.ones(5))

            def test_npu_round_trip(self):
                x = torch.rand(3, 5)
                n = x.npu()
                self.assertTrue(n.is_npu and torch.npu.device_count() == 1)
                self.assertRtolEqual((n * 2).cpu(), x * 2)
                self.assertRtolEqual(n.t().contiguous().cpu(), x.t().contiguous())

        if __name__ == "__main__":
            run_tests()
    """)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "Ran 5 tests" in got.stderr


def test_host_source_and_kernel_source():
    m = _emulation_module()
    text = textwrap.dedent("""\
        #include <torch/extension.h>
        #include "kernel_operator.h"
        namespace ns {
        template <typename T, int N>
        __global__ __aicore__ void k(GM_ADDR x) {
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        at::Tensor run(const at::Tensor& t) {
            using DataType = float;
            constexpr int32_t kLen = 64;
            k<DataType, kLen><<<8, nullptr,
                stream>>>((uint8_t*)t.data_ptr());
            return t;
        }
        }
        PYBIND11_MODULE(m, mod) { mod.def("run", &ns::run); }
    """)
    host, launched = m.host_source(text)
    assert launched == ["k<DataType, kLen>"]
    assert 'ascendcraft_host::launch("k<DataType, kLen>", 8, (uint8_t*)t.data_ptr());' in host
    assert "__global__ __aicore__ void k(GM_ADDR x) ;" in host and "PipeBarrier" not in host   # a declaration
    assert host.count("\n") == text.count("\n") and "PYBIND11_MODULE" in host
    assert m.kernel_entry(launched[0], text) == "k<float, 64>"
    device = m.kernel_source(text)
    assert "torch/extension.h" not in device and "PYBIND11_MODULE" not in device and "at::Tensor" not in device
    assert "PipeBarrier" in device and "using ns::k;" in device and device.count("\n") == text.count("\n")


def test_corpus_finds_the_extension_and_its_script():
    "corpus.py's hook (examples/corpus/torch_ext_host.py): which examples are PyTorch extensions, which script judges them."
    sys.path.insert(0, str(REPO / "examples" / "corpus"))
    try:
        from torch_ext_host import binds_pytorch, readme_script
    finally:
        sys.path.pop(0)
    assert binds_pytorch('#include <pybind11/pybind11.h>\n') and binds_pytorch('#include "torch_npu/csrc/core/npu/NPUStream.h"\n')
    assert not binds_pytorch('#include "kernel_operator.h"\n// #include <torch/extension.h> in a comment line\n')
    assert readme_script("cmake ..;make -j;\npython3 ../add_custom_test.py    # run\n") == "../add_custom_test.py"
    assert readme_script('msopprof --application="python3 ../torch_library_report_tensor.py" --output="../result"\n') \
        == "../torch_library_report_tensor.py"
    assert readme_script("./demo\n") is None
