"""The device log's level check, CheckLogLevel, is a library function in CANN: toolchain/slog.h declares
`int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel)` with C linkage and libslog defines it. An op's host source
may therefore define it itself: cann-ops max_pool3_d_with_argmax_v2's op_host/max_pool3_d_with_argmax_v2.cpp:22 does
(a stub returning 1), which CANN's build accepts. The emulated log headers defined it inline (base/alog_pub.h), so that
source stopped at "redefinition of 'int32_t CheckLogLevel(int32_t, int32_t)'". Now the header declares it as CANN's
does and the emulated library's definition is weak, in a unit of its own: the runtime library (kernel and project
programs) and the host programs (`host_program`: the op definition's dump, InferShape) each link one."""
import shutil
import tempfile
from pathlib import Path

import torch

from ascendcraft import sandbox
from ascendcraft.config import load_settings
from ascendcraft.opproject import host_program, run_project

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "opprojects"

PRINT_LEVELS = """
int main() {
    std::printf("%d %d %d\\n", CheckLogLevel(OP, DLOG_DEBUG), CheckLogLevel(OP, DLOG_WARN), CheckLogLevel(OP, DLOG_ERROR));
    return 0;
}
"""


def _host_output(source: str) -> str:
    "What a host program prints that includes the project file op_host/levels.cpp (`source`) and prints three levels."
    settings = load_settings()
    with tempfile.TemporaryDirectory(prefix="dlog-") as tmp:
        done, program = host_program({"op_host/levels.cpp": source}, "__ascendcraft_dlogtest.cpp",
                                     '#include "op_host/levels.cpp"\n' + PRINT_LEVELS, Path(tmp), settings=settings)
        assert done.returncode == 0, done.stdout + done.stderr
        ran = sandbox.run([str(program)], scratch=Path(tmp), limits=sandbox.run_limits(settings), settings=settings)
        assert ran.returncode == 0, ran.stderr
        return ran.stdout.strip()


def test_a_host_program_calls_the_emulated_library_check_when_no_source_defines_it():
    # debug and info off, warnings and errors on (as AlogCheckDebugLevel); reached through log/log.h and slog.h
    assert _host_output('#include <cstdio>\n#include "log/log.h"\n#include "toolchain/slog.h"\n') == "0 1 1"


def test_a_source_of_its_own_may_define_check_log_level_and_its_definition_is_called():
    # as max_pool3_d_with_argmax_v2.cpp: the definition after the log headers, without extern "C" (it takes the
    # declaration's C linkage); the program calls it, not the library's
    own = ('#include <cstdio>\n#include "log/log.h"\n#include "toolchain/slog.h"\n'
           "int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel) {\n    (void)moduleId;\n    return logLevel + 10;\n}\n")
    assert _host_output(own) == "10 12 13"


def test_an_op_project_defining_check_log_level_builds_and_its_tiling_calls_its_own(tmp_path):
    # the project program links the runtime library (its weak definition) and the InferShape program the host
    # program's unit: the op's definition must win in both; its tiling scales alpha by the value its own check gives
    folder = tmp_path / "scale_add_custom"
    shutil.copytree(EXAMPLES / "scale_add_custom", folder)
    host = folder / "op_host" / "scale_add_custom.cpp"
    text = host.read_text()
    anchor = "    tiling.set_alpha(alpha ? *alpha : 1.0f);\n"
    assert text.count(anchor) == 1
    head = ('#include "log/log.h"\n'
            "int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel) {\n"
            "    (void)moduleId;\n    return logLevel == DLOG_DEBUG ? 3 : 0;\n}\n")
    host.write_text(head + text.replace(anchor, "    tiling.set_alpha((alpha ? *alpha : 1.0f) * CheckLogLevel(OP, DLOG_DEBUG));\n"))
    x, y = torch.randn(4096), torch.randn(4096)
    r = run_project(folder, {"x": x, "y": y}, attrs={"alpha": 0.5}, reference=lambda x, y, alpha: x + 3 * alpha * y)
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
