"""The emulated Matmul host tiling refuses what CANN's refuses, and only that: SetFixSplit's and SetBufferSpace's -1
returns (their pages' return codes; which values, from CANN's implementation read for behaviour) and the checks GetTiling
makes on the fixed base block and the shape before it tiles. Each case is a small host program of our own; a refused
setter changes nothing, as CANN's."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
using namespace matmul_tiling;
static void fp16(MatmulApiTilingBase& t) {
    t.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
}
static void tile(const char* name, MatmulApiTilingBase& t) {
    optiling::TCubeTiling d;
    long r = t.GetTiling(d);
    if (r == -1) std::printf("%s -1\n", name);
    else std::printf("%s %ld %d %d %d\n", name, r, (int)d.baseM, (int)d.baseN, (int)d.baseK);
}
#define SAY(name, expr) std::printf("%s %d\n", name, (int)(expr))
int main() {
    platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    BODY
}
'''


def run(tmp_path, body):
    src = tmp_path / "refusals.cpp"
    src.write_text(HOST.replace("BODY", body))
    exe = tmp_path / "refusals"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {name: rest for name, _, rest in (line.partition(" ") for line in out.splitlines())}


def test_set_fix_split_refuses_a_zero_part_and_changes_nothing(tmp_path):
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetShape(64, 64, 64);
    SAY("m0", t.SetFixSplit(0, 32, -1)); SAY("n0", t.SetFixSplit(32, 0, -1)); SAY("k0", t.SetFixSplit(32, 32, 0));
    tile("after", t);''')
    assert (out["m0"], out["n0"], out["k0"]) == ("-1", "-1", "-1")
    assert out["after"] != "-1" and out["after"].split()[1:3] == ["64", "64"]   # no part of the refused calls was kept


def test_set_fix_split_refuses_a_base_m_or_n_off_the_16_grid(tmp_path):
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetShape(64, 64, 64);
    SAY("m24", t.SetFixSplit(24, -1, -1)); SAY("n40", t.SetFixSplit(-1, 40, -1)); SAY("ok", t.SetFixSplit(48, 32, -1));
    tile("after", t);''')
    assert (out["m24"], out["n40"], out["ok"]) == ("-1", "-1", "0")
    assert out["after"].split()[1:3] == ["48", "32"]


def test_set_fix_split_refuses_a_base_k_off_32_bytes_of_a(tmp_path):
    "32 bytes of A's type as set at the call: float (8) before SetAType, as CANN's A starts; 16 halves or 32 int8 after."
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform);
    SAY("float8", t.SetFixSplit(-1, -1, 8));
    fp16(t);
    SAY("half24", t.SetFixSplit(-1, -1, 24)); SAY("half32", t.SetFixSplit(-1, -1, 32));
    MatmulApiTiling q(*platform);
    q.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, false);
    SAY("int8_16", q.SetFixSplit(-1, -1, 16)); SAY("int8_64", q.SetFixSplit(-1, -1, 64));''')
    assert (out["float8"], out["half24"], out["half32"], out["int8_16"], out["int8_64"]) == ("0", "-1", "0", "-1", "0")


def test_set_fix_split_minus_one_keeps_an_earlier_fixed_part(tmp_path):
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetShape(128, 128, 64);
    SAY("first", t.SetFixSplit(64, 64, -1)); SAY("second", t.SetFixSplit(-1, 32, -1));
    tile("after", t);''')
    assert (out["first"], out["second"]) == ("0", "0")
    assert out["after"].split()[1:3] == ["64", "32"]


def test_set_buffer_space_refuses_sizes_outside_the_buffers_and_changes_nothing(tmp_path):
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetShape(128, 128, 64);
    uint64_t l1 = 0, ub = 0; platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    SAY("l1_big", t.SetBufferSpace((int32_t)l1 + 32, -1, -1, -1));
    SAY("l0c_big", t.SetBufferSpace(-1, 256 * 1024, -1, -1));
    SAY("ub_big", t.SetBufferSpace(-1, 32 * 1024, (int32_t)ub + 32, -1));   // refused whole: L0C stays 128 KB
    SAY("bt_big", t.SetBufferSpace(-1, -1, -1, 2048));
    SAY("minus2", t.SetBufferSpace(-2, -1, -1, -1));
    SAY("all", t.SetBufferSpace((int32_t)l1, 128 * 1024, (int32_t)ub, 1024));
    t.SetFixSplit(128, 128, -1);
    tile("after", t);''')
    assert [out[k] for k in ("l1_big", "l0c_big", "ub_big", "bt_big", "minus2", "all")] == ["-1"] * 5 + ["0"]
    assert out["after"].split()[1:3] == ["128", "128"]   # 128 x 128 floats: all of the 128 KB L0C the refused call kept


def test_set_buffer_space_rounds_down_to_32_bytes_and_never_grows_back(tmp_path):
    "A size replaces the tiling's own rounded down to 32 bytes; a later call may not ask for more than that."
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetShape(128, 128, 64);
    SAY("odd", t.SetBufferSpace(-1, 65567, -1, -1));      // L0C 65,536 after rounding
    SAY("again", t.SetBufferSpace(-1, 65567, -1, -1));    // above the 65,536 it has now
    SAY("same", t.SetBufferSpace(-1, 65536, -1, -1));
    SAY("grow", t.SetBufferSpace(-1, 128 * 1024, -1, -1));
    t.SetFixSplit(128, 256, -1);
    tile("after", t);''')
    assert (out["odd"], out["again"], out["same"], out["grow"]) == ("0", "-1", "0", "-1")
    assert out["after"] == "-1"   # 128 x 256 floats need 128 KB; the tiling has 64 KB of L0C


def test_get_tiling_refuses_a_zero_set_shape(tmp_path):
    "SetShape's M, N and K are CANN's singleM / N / K: a zero one fails GetTiling even when SetOrgShape gives the whole."
    out = run(tmp_path, '''
    MatmulApiTiling t(*platform); fp16(t); t.SetOrgShape(64, 64, 64); t.SetShape(64, 0, 64);
    tile("zero", t);
    t.SetShape(64, 64, 64);
    tile("whole", t);''')
    assert out["zero"] == "-1" and out["whole"] != "-1"


def test_get_tiling_refuses_a_fixed_base_k_that_overflows_l0_on_the_block_way(tmp_path):
    "A fixed baseK is checked against L0A / L0B with the fixed baseM / baseN before any way picks its own base block."
    out = run(tmp_path, '''
    MultiCoreMatmulTiling t(*platform); t.SetDim(24); fp16(t); t.SetOrgShape(2048, 2048, 2048);
    t.SetFixSplit(128, 256, 256);    // B: 256 x 256 halves = 128 KB, past the 64 KB L0B
    tile("wide", t);
    MultiCoreMatmulTiling u(*platform); u.SetDim(24); fp16(u); u.SetOrgShape(2048, 2048, 2048);
    u.SetFixSplit(128, 256, 64);
    tile("fits", u);''')
    assert out["wide"] == "-1"
    assert out["fits"] != "-1" and out["fits"].split()[1:3] == ["128", "256"]
