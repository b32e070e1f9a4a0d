"""Tiling-template operators (the style of CANN's newer open repositories, hicann ops-math / ops-nn): the kernel entry is
a template on the parameters ASCENDC_TPL_ARGS_DECL declares, ASCENDC_TPL_SEL selects the instances CANN's build
compiles, the host's tiling function encodes its choice into the tiling key (ASCENDC_TPL_SEL_PARAM) and the launch runs
the instance of that key; a key that selects no instance is an error naming it. The op_host code uses ops-base's
helpers (log/log.h, util/math_util.h) and writes the tiling struct in place (GetTilingData<T>)."""
from pathlib import Path

import torch

from ascendcraft.opproject import load_project, run_cases, run_project, tpl_header, tpl_instances

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"


def _key(dtype: int, tiles: int, square: bool) -> int:
    "The key layout of the example's declaration: dtype in 8 bits, the tile count's index in (1, 4) in 2, square in 1."
    return dtype | (1, 4).index(tiles) << 8 | int(square) << 10


def test_the_selected_instances_and_their_keys_follow_the_declaration():
    project = load_project(FOLDER)
    header = tpl_header(project.sources, project.kernel_file)
    assert header == "op_kernel/tpl_scale_custom_tiling_key.h"
    got = {i.key: i.args for i in tpl_instances(project.sources, header)}
    want = {_key(0, t, s): ("TypeFromId<0>::type", str(t), "true" if s else "false") for t in (1, 4) for s in (False, True)}
    want[_key(1, 4, False)] = ("TypeFromId<1>::type", "4", "false")    # float16: one combination only
    assert got == want


def test_each_case_runs_the_instance_of_the_key_its_tiling_function_sets():
    results = run_cases(FOLDER)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert [r.tiling_key for _, r in results] == [_key(0, 1, False), _key(0, 4, True), _key(1, 4, False)]


def test_a_key_that_selects_no_instance_is_an_error_naming_it():
    x = torch.randn(8 * 64).to(torch.float16)
    unselected = _key(1, 1, False)    # encodable, but ASCENDC_TPL_SEL builds float16 only with four tiles
    r = run_project(FOLDER, {"x": x}, attrs={"scale": 2.0}, tiling_key=unselected,
                    reference=lambda x, scale: x * scale)
    assert not r.run.ok
    errors = [d for d in r.run.diagnostics if d.is_error]
    assert errors and errors[0].kind == "tiling-key"
    assert f"tiling key {unselected} selects no instance" in errors[0].message
    assert str(_key(1, 4, False)) in errors[0].message      # and it names the keys there are
