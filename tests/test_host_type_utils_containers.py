"""graph/utils/type_utils.h brings <map>, <set> and <unordered_set> along, as the public metadef header does, and op_host
code relies on it: ops-transformer's prompt_flash_attention tiling names `std::unordered_set` with no include of its
own. A host file in that style (our own) compiles and runs against the emulated header."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "register/op_def_registry.h"
#include "graph/utils/type_utils.h"
#include <cstdio>
static bool ModeAllowed(int32_t mode) {
    const std::unordered_set<int32_t> modes = {20, 21, 22};
    const std::set<int32_t> legacy = {0, 1};
    std::map<int32_t, const char*> names = {{20, "band"}};
    return modes.count(mode) > 0 || legacy.count(mode) > 0 || names.count(mode) > 0;
}
int main() {
    std::printf("%d %d %s\n", ModeAllowed(21), ModeAllowed(7),
                ge::TypeUtils::DataTypeToSerialString(ge::DT_FLOAT16).c_str());
    return 0;
}
'''


def test_type_utils_brings_the_containers(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    built = subprocess.run(["g++", "-std=c++17", "-include", "ascendcraft_emu/op_host.h", "-I", str(INCLUDE_DIR),
                            "host.cpp", "-o", "host"], cwd=tmp_path, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "0", "DT_FLOAT16"]
