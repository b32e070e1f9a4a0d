"""ops-base's OP_LOGW / OP_LOGE (log/log.h) called with the op argument alone, as CANN's macros accept it: ops-nn
conv3d_backprop_input_v2's `OP_CHECK_IF(..., OP_LOGW("this case may exceed size"), return false)` logs that text in
the op's place; the usual forms still log the op and the formatted message."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "log/log.h"
#include <string>
static bool Check(bool fits) {
    OP_CHECK_IF(!fits, OP_LOGW("this case may exceed size"), return false);
    return true;
}
int main() {
    const std::string op = "Conv3DBackpropInputV2";
    OP_LOGE("only the op");
    OP_LOGE(op, "rank %d", 5);
    OP_LOGW(op.c_str(), "plain");
    return Check(false) ? 1 : 0;
}
'''


def test_op_log_with_the_op_alone(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True)
    assert out.returncode == 0
    lines = out.stderr.splitlines()
    assert lines[0].startswith("[ERROR] only the op")
    assert lines[1] == "[ERROR] Conv3DBackpropInputV2: rank 5"
    assert lines[2] == "[WARNING] Conv3DBackpropInputV2: plain"
    assert lines[3].startswith("[WARNING] this case may exceed size")
