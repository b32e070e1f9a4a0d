"""The emulated stand-in for CANN's closed legacy op-host library (ascendcraft_emu/ophost_legacy.h): hicann ops-nn's
matmul TilingParse functions fill their compile info from the platform and then call `TilingPrepareForOpCache`, an
adapter that asks `Ops::NN::LegacyCommonMgr` for the library's "LegacyTilingParsePrepareForOpCache" and fails the parse
when there is none (ops-nn mat_mul_v3, batch_mat_mul_v3). The stand-in answers it from the emulated platform (and names
a missing platform fact); GenTiling, whose tiling its caller converts whatever it returns, is an error naming it; any
other name is absent, as dlsym answers. The corpus copies of ops-nn get the emulated loader in place of the repository's
header; the adapters are the repository's own. The op project below is written here, in the style of those adapters."""
import subprocess
from pathlib import Path

import torch

from _corpus import git_repo, load_corpus
from ascendcraft.opproject import run_project
from test_opproject import copy_project, runs_like_scale_add

corpus = load_corpus("corpus_ophost_legacy")

LEGACY_PROGRAM = r"""
#include <cstdio>
#include <string>
#include "ascendcraft_emu/ophost_legacy.h"
using ParseFn = bool (*)(gert::TilingParseContext*);
using TilingFn = bool (*)(gert::TilingContext*);
using GenFn = bool (*)(const std::string&, int&);
int main() {
    const auto& mgr = Ops::NN::LegacyCommonMgr::GetInstance();
    ParseFn parse = mgr.GetFunc<ParseFn>("LegacyTilingParsePrepareForOpCache");
    TilingFn tiling = mgr.GetFunc<TilingFn>("LegacyTilingPrepareForOpCache");
    gert::TilingParseContext p;
    gert::TilingContext t;
    std::printf("%d %d|", parse != nullptr && parse(&p), tiling != nullptr && tiling(&t));
    // a missing fact is false (stderr names it); a null context too
    p.platform_.l0c = 0;
    std::printf("%d ", parse(&p));
    p.platform_.l0c = 131072; p.platform_.aic = 0;
    std::printf("%d %d|", parse(&p), parse(nullptr));
    // absent: the tuning bank, an unknown name, the parse name asked for with another signature
    std::printf("%d %d %d|", mgr.GetFunc<void*(*)()>("LegacyQueryBank") == nullptr,
                mgr.GetFunc<ParseFn>("NoSuchFunction") == nullptr, mgr.GetFunc<TilingFn>("LegacyTilingParsePrepareForOpCache") == nullptr);
    GenFn gen = mgr.GetFunc<GenFn>("LegacyGenTbeMatmulTiling");
    int out = 0;
    try { gen("MatMulV3", out); std::printf("returned"); }
    catch (const std::exception& e) { std::printf("%s", std::string(e.what()).find("LegacyGenTbeMatmulTiling") != std::string::npos ? "named" : e.what()); }
    return 0;
}
"""


def test_the_stand_in_prepares_from_the_platform_names_a_missing_fact_and_refuses_gen_tiling(tmp_path):
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "t.cpp").write_text(LEGACY_PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    done = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    assert done.stdout == "1 1|0 0 0|1 1 1|named", done.stdout
    assert "the platform gives no L0_C size" in done.stderr and "SoCInfo/ai_core_cnt" in done.stderr, done.stderr
    assert "has no platform info" in done.stderr, done.stderr


# ops-nn's shape: the adapter asks the loader for the library's C name and fails the parse without it; the parse fills
# its compile info from platform_ascendc first; the tiling function reads the compile info
HEAD = """#include "ascendcraft_emu/ophost_legacy.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
namespace optiling {
struct ScaleAddCompileInfo { uint64_t aicNum = 0, l0cSize = 0, l1Size = 0; bool prepared = false; };
static bool PrepareOpCache(gert::TilingParseContext* context) {
    using Fn = bool (*)(gert::TilingParseContext*);
    static Fn fn = Ops::NN::LegacyCommonMgr::GetInstance().GetFunc<Fn>("LegacyTilingParsePrepareForOpCache");
    return fn != nullptr && fn(context);
}
static ge::graphStatus ScaleAddParse(gert::TilingParseContext* context) {
    auto* info = context->GetCompiledInfo<ScaleAddCompileInfo>();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->aicNum = platform.GetCoreNumAic();
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, info->l0cSize);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, info->l1Size);
    info->prepared = PrepareOpCache(context);
    return info->prepared ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
%s
}  // namespace optiling
"""
REGISTER = "\nnamespace optiling {\nIMPL_OP_OPTILING(ScaleAddCustom).TilingParse<ScaleAddCompileInfo>(ScaleAddParse);\n}\n"


def _project(tmp_path, extra: str = "", lines: str = ""):
    folder = copy_project(tmp_path, "scale_add_custom")
    host = folder / "op_host" / "scale_add_custom.cpp"
    text = host.read_text()
    alpha = "    tiling.set_alpha(alpha ? *alpha : 1.0f);\n"
    assert text.count(alpha) == 1, "scale_add_custom's TilingFunc no longer sets alpha in one line"
    # alpha scaled by the compile info's L0C / L1 sizes and AI cores (131072 / 524288 * 24 = 6 on the emulated A2)
    scaled = ("    const auto* info = context->GetCompileInfo<ScaleAddCompileInfo>();\n"
              "    if (info == nullptr || !info->prepared) return ge::GRAPH_FAILED;\n" + lines +
              "    tiling.set_alpha((alpha ? *alpha : 1.0f) * info->l0cSize / info->l1Size * info->aicNum);\n")
    host.write_text(HEAD % extra + text.replace(alpha, scaled) + REGISTER)
    return folder


def test_an_op_projects_tiling_parse_prepares_the_op_cache_and_the_tiling_reads_the_compile_info(tmp_path):
    # before the stand-in, the loader found no library: the parse failed, and with it the run
    runs_like_scale_add(_project(tmp_path), factor=131072 / 524288 * 24)


def test_gen_tiling_in_a_tiling_function_is_an_error_naming_it(tmp_path):
    gen = """static bool GenTiling(const char* op, uint64_t& tilingId) {
    using Fn = bool (*)(const char*, uint64_t&);
    static Fn fn = Ops::NN::LegacyCommonMgr::GetInstance().GetFunc<Fn>("LegacyGenTbeMatmulTiling");
    return fn != nullptr && fn(op, tilingId);
}"""
    folder = _project(tmp_path, gen, "    uint64_t tilingId = 0;\n    (void)GenTiling(\"ScaleAddCustom\", tilingId);\n")
    r = run_project(folder, {"x": torch.zeros(4096), "y": torch.zeros(4096)}, attrs={"alpha": 0.5},
                    outputs={"z": ((4096,), "float32")})
    text = "\n".join(d.render() for d in r.run.diagnostics)
    assert not r.run.ok and "LegacyGenTbeMatmulTiling" in text and "not emulated" in text, text


def test_the_corpus_copy_of_ops_nn_gets_the_emulated_loader_and_keeps_its_adapters(tmp_path):
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    files = {f"ops/scale_add_custom/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    host = files["ops/scale_add_custom/op_host/scale_add_custom.cpp"]
    files["ops/scale_add_custom/op_host/scale_add_custom.cpp"] = '#include "legacy_common_manager.h"\n#include "op_host/other.h"\n' + host
    loader = "#pragma once\n#include <dlfcn.h>\nnamespace Ops {\nnamespace NN {\nclass LegacyCommonMgr {\n};\n}\n}\n"
    files.update({"common/inc/legacy_common_manager.h": loader, "common/inc/op_host/other.h": "#pragma once\n// other\n"})
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "ops/scale_add_custom", "kind": "op-project"}
    dest = tmp_path / "copy"
    corpus.materialise(entry, gitdir, dest)
    copied = (dest / "common_inc" / "legacy_common_manager.h").read_text()
    assert '#include "ascendcraft_emu/ophost_legacy.h"' in copied and "class LegacyCommonMgr" not in copied, copied
    assert (dest / "common_inc" / "op_host" / "other.h").read_text() == "#pragma once\n// other\n"
    # another repository's header of that name is its own
    entry["repo"] = "hicann/ops-math"
    corpus.materialise(entry, gitdir, tmp_path / "math")
    math = tmp_path / "math" / "common_inc" / "legacy_common_manager.h"
    assert math.read_text() == loader
