"""The asc-devkit examples' host run (examples/corpus/corpus.py match_asc_host, asc_host_launch.h): the host program's
`<<<>>>` launches rewritten into calls that hand the arguments to the harness, and the multi-core Matmul tiling's
split on a tie (M first)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "corpus"))


def test_launch_statements_become_host_launch_calls():
    from asc_run import asc_host_source
    text = ('#include "cpu_debug_launch.h"\n'
            "int main() {\n"
            "    matmul_custom<<<numBlocks, 0, stream>>>(a, b,\n        c, tiling);\n"
            "    add<float, 8><<<8, nullptr, stream>>>();\n"
            "    ns::k<<<tiling->usedCoreNum, 0, stream>>>(x);\n}\n")
    out = asc_host_source(text)
    assert out.count("\n") == text.count("\n")                      # line numbers kept
    assert 'ascendcraft_host::launch("matmul_custom", numBlocks, a, b,\n        c, tiling);' in out
    assert 'ascendcraft_host::launch("add<float, 8>", 8);' in out
    assert 'ascendcraft_host::launch("ns::k", tiling->usedCoreNum, x);' in out
    assert "cpu_debug_launch.h" not in out and "<<<" not in out


HOST = r'''
#include "asc_host_launch.h"
#include <cstdio>
int main() {
    void* d = nullptr;
    aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<ascendcraft_host::Arg> v;
    ascendcraft_host::add(v, static_cast<uint8_t*>(d) + 32);
    ascendcraft_host::add(v, nullptr);
    int local = 0;
    ascendcraft_host::add(v, &local);
    ascendcraft_host::add(v, -3);
    ascendcraft_host::add(v, 1.5f);
    struct S { uint32_t a, b; } s{1, 2};
    ascendcraft_host::add(v, s);
    std::printf("%c %zu %c %c %c%c %c%c %c%zu\n", v[0].kind, v[0].offset, v[1].kind, v[2].kind, v[3].kind, v[3].type,
                v[4].kind, v[4].type, v[5].type, v[5].bytes.size());
}
'''


def test_host_launch_arguments(tmp_path):
    "A pointer into an ACL allocation is that allocation and an offset; null and foreign pointers, values by their kind."
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "-I", str(ROOT / "examples" / "corpus"), "t.cpp", "-o", "t"],
                   cwd=tmp_path, check=True, capture_output=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["b", "32", "n", "h", "vi", "vf", "o8"]


TIE = r'''
#include "tiling/tiling_api.h"
#include <cstdio>
using namespace matmul_tiling;
int main() {
    MultiCoreMatmulTiling mm;
    mm.SetDim(2);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    mm.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(512, 512, 128);
    mm.SetOrgShape(512, 512, 128);
    optiling::TCubeTiling t;
    long ok = mm.GetTiling(t);
    std::printf("%ld %d %d %d\n", ok, t.usedCoreNum, t.singleCoreM, t.singleCoreN);
}
'''


def test_multicore_tiling_splits_m_on_a_tie(tmp_path):
    "512 x 512 x 128 on two cores: M and N splits cost the same; M is split (asc-devkit matmul_advanced_api's kernel offsets A only)."
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(TIE)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True, capture_output=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "2", "256", "512"]


def test_script_env_tensorflow_bfloat16_stand_in(tmp_path):
    "Without TensorFlow, an example script gets its bfloat16 NumPy type (ml_dtypes') and nothing else of TensorFlow's."
    import importlib.util
    from asc_run import _script_env
    if importlib.util.find_spec("tensorflow") is not None:
        pytest.skip("TensorFlow is installed: the scripts use it")
    env = _script_env(tmp_path)
    code = ("import numpy as np, ml_dtypes, tensorflow as tf\n"
            "assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16\n"
            "print(np.array([1.5], tf.bfloat16.as_numpy_dtype).astype(np.float32)[0])\n"
            "try:\n    tf.compat\nexcept ImportError as e:\n    print('refused', 'bfloat16' in str(e))\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1.5", "refused", "True"]


def test_cmake_option_off_leaves_its_definitions_out():
    "`option(X ... OFF)` + `if(X) target_compile_definitions(demo PRIVATE X) endif()`: X is not defined by default."
    from corpus import cmake_defaults
    text = ('set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")\n'
            'option(USE_FRONT_MODE "front mode (default: OFF)" OFF)\n'
            'option(USE_OTHER "on by default" ON)\n'
            'if(USE_FRONT_MODE)\n    target_compile_definitions(demo PRIVATE USE_FRONT_MODE)\nendif()\n'
            'if(USE_OTHER)\n    target_compile_definitions(demo PRIVATE USE_OTHER)\nendif()\n'
            'target_compile_definitions(demo PRIVATE ALWAYS=1)\n')
    arch, flags = cmake_defaults(text)
    assert arch == "dav-2201" and flags.split() == ["-DUSE_OTHER", "-DALWAYS=1"]


def test_host_verdict():
    "The host program's own check: its pass line counts, an error log besides is named; a failure line or exit fails."
    from asc_run import _host_verdict
    ok = _host_verdict(0, "[ERROR] [ReduceMax] isSrcInnerPad must be true on this platform\nCompareResult success!\ntest pass!")
    assert ok["match"] == "pass" and "isSrcInnerPad" in ok["match_detail"]
    assert _host_verdict(0, "test pass!")["match_detail"] == "test pass! (the host program's own check)"
    assert _host_verdict(0, "[ERROR] file size is larger than buffer size\ntest failed!")["match"] == "mismatch"
    assert _host_verdict(1, "test pass!")["match"] == "mismatch"
    assert _host_verdict(0, "[ERROR] result error")["match"] == "mismatch"
    assert _host_verdict(0, "output c matrix[:16]") is None


def test_readme_variables_reach_the_scripts_and_the_program():
    "broadcast's README: `TESTCASE=1`, `python3 ../scripts/gen_data.py --testcase $TESTCASE`, `./demo $TESTCASE`."
    from asc_run import _readme_commands, _readme_demo_args
    readme = ("  ```bash\n  TESTCASE=1                    # 0: one shape  1: another\n  mkdir -p build && cd build;\n"
              "  python3 ../scripts/gen_data.py --testcase $TESTCASE  # data\n  ./demo $TESTCASE              # run\n  ```\n")
    gen, verify = _readme_commands(readme, "")
    assert gen == ["../scripts/gen_data.py", "--testcase", "1"] and verify is None
    assert _readme_demo_args(readme, "") == ["1"]
    assert _readme_demo_args("  ./demo                 # run\n", "") == []
    assert _readme_demo_args("  ./demo $UNKNOWN\n", "") == []


def test_readme_line_of_several_assignments():
    "data_copy's README sets two variables on one line (`SCENARIO_NUM=1 ASC_ARCH=dav-2201`), its gen_data.py takes both."
    from asc_run import _readme_commands
    readme = ("  ```bash\n  SCENARIO_NUM=1 ASC_ARCH=dav-2201\n  COPY_DST=UB\n  mkdir -p build && cd build\n"
              "  python3 ../scripts/gen_data.py -scenarioNum $SCENARIO_NUM -copyDst $COPY_DST -arch $ASC_ARCH\n  ./demo\n  ```\n")
    gen, _ = _readme_commands(readme, "-DCOPY_DST=L1")
    assert gen == ["../scripts/gen_data.py", "-scenarioNum", "1", "-copyDst", "L1", "-arch", "dav-2201"]


NOTHING_WRITTEN = r'''#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

__global__ __vector__ void read_only(GM_ADDR x)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, 8);   // copied in, never out: a copy-in benchmark's kernel
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* x = nullptr;
    aclrtMalloc(&x, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    read_only<<<1, nullptr, stream>>>((uint8_t*)x);
    aclrtSynchronizeStream(stream);
    aclrtFree(x);
    std::printf("test pass!\n");   // printed whatever the kernel did
    return 0;
}
'''


def _example_repo(tmp_path, name, asc, readme):
    "A one-example git repository laid out as asc-devkit's (examples/<name>/: the .asc, CMakeLists.txt, README.md)."
    repo = tmp_path / "repo"
    folder = repo / "examples" / name
    folder.mkdir(parents=True)
    (folder / f"{name}.asc").write_text(asc)
    (folder / "CMakeLists.txt").write_text(f"add_executable(demo {name}.asc)\n")
    (folder / "README.md").write_text(readme)
    git = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True, text=True).stdout
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "example")
    return str(repo / ".git"), git("rev-parse", "HEAD").strip(), f"examples/{name}/{name}.asc"


def test_host_run_kernel_that_writes_nothing_is_no_reference(tmp_path):
    """A launch whose kernel writes no GM byte (every pointer argument is given in/out: only the host knows its outputs)
    does not stop the host run; with no verify_result.py, the host's unconditional 'test pass!' is not taken as a pass."""
    from corpus import _try_entry
    gitdir, commit, path = _example_repo(tmp_path, "read_only", NOTHING_WRITTEN,
                                         "```bash\n./demo\n```\n\n执行结果如下，说明执行成功。\n```bash\ntest pass!\n```\n")
    out = _try_entry(dict(source="t", repo="t/t", commit=commit, path=path, kind="asc-file"), gitdir, True, False)
    assert out["kernel_ok"], out
    assert out["match"] == "no-reference", out
    assert "writes no GM output" in out["match_detail"], out


ASSERTING = r'''#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

template <uint32_t N>
__global__ __vector__ void checked(GM_ADDR x)
{
    assert(N < 4 && "N is too large");
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    xGm.SetValue(0, 1.0f);
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* x = nullptr;
    aclrtMalloc(&x, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    std::printf("before the launch: %d\n", aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    checked<8><<<1, nullptr, stream>>>((uint8_t*)x);
    const aclError code = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    const aclError taken = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    const char* msg = aclGetRecentErrMsg();
    std::printf("after: %d %d %d %s %d\n", code, taken, aclrtGetLastError(ACL_RT_THREAD_LEVEL), msg ? "message" : "none",
                aclGetRecentErrMsg() == nullptr);
    aclrtFree(x);
    return 0;
}
'''


def test_host_run_an_assert_the_readme_shows_firing_passes(tmp_path):
    """A kernel whose assertion stops it, where the README shows that assertion failing (asc-devkit 09_log): the host
    program goes on with the launch's runtime error (aclrtGetLastError 507015 once, aclGetRecentErrMsg a message once)."""
    from corpus import _try_entry
    readme = ("```bash\n./demo\n```\n\n执行结果如下：\n```bash\n[ASSERT] <your_path>/checked.asc:<line>: : "
              "Assertion `N < 4 && \"N is too large\"' failed.\n```\n")
    gitdir, commit, path = _example_repo(tmp_path, "checked", ASSERTING, readme)
    out = _try_entry(dict(source="t", repo="t/t", commit=commit, path=path, kind="asc-file"), gitdir, True, False)
    assert out["match"] == "pass", out
    assert "after: 507015 507015 0 message 1" in out["match_detail"], out
    # the same assertion where the README does not show it: the run's error
    gitdir2, commit2, path2 = _example_repo(tmp_path / "plain", "checked", ASSERTING, "```bash\n./demo\n```\n")
    out = _try_entry(dict(source="t", repo="t/t", commit=commit2, path=path2, kind="asc-file"), gitdir2, True, False)
    assert out["match"] == "run-error" and "assertion failed" in out["match_detail"], out
