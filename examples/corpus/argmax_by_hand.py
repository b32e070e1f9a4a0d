"""hicann ops-math arg_max_with_value / arg_min_with_value (kernels on the device compiler's raw CCE intrinsics) run by
hand against NumPy: the LAST_DIRECT schedule (tiling key schMode 1: each output reduces a contiguous row of axisSize
elements, one WholeReduce a row under an exact-axis mask) or another, a [rows, axis] input reduced over its last axis, with
the tiling written out (the op's TilingFunc needs the host broadcast tiling API, which the emulated host headers lack).

    python examples/corpus/argmax_by_hand.py <hicann/ops-math git dir> [rows] [axis] [schedule] [rowTile] [column] [repeat]

(schedule: an ARG_SCH_* value of op_kernel/arg_max_with_value_tiling_key.h, 1 LAST_DIRECT by default; 8 LAST_SEG
reduces each 64-wide chunk, then folds the chunks with vcmpv / vsel, rowTile rows at a time; 16 LAST_LONG and 17
LAST_LONG_PACKED (float or int16 only) take one row of a long axis per core, rows cores, as the op's TilingFunc gives
them (perCore 1, usedCoreNum rows): the path whose 40-byte static tensor the thirty-eighth round stopped on; column: the OpDef's
dtype column, 0 half, 2 float, 3 int16_t; repeat: run each built kernel that many times, each run a new kernel process,
and count the runs that differ: a result that changes from run to run is the emulator's fault.)
"""
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.emu import GM, Tiling, Workspace, build, run  # noqa: E402
from ascendcraft.opproject import dtype_macros, load_project, template_entry, tpl_header, tpl_instances  # noqa: E402

LAST_DIRECT = 1   # ARG_SCH_LAST_DIRECT of op_kernel/arg_max_with_value_tiling_key.h
SCHEDULES = {1: "LAST_DIRECT", 8: "LAST_SEG", 16: "LAST_LONG", 17: "LAST_LONG_PACKED"}   # the ones run here
ONE_ROW_PER_CORE = (16, 17)   # ARG_SCH_LAST_LONG[_PACKED]: the TilingFunc's oneLongRowPerCore split


def tiling_bytes(rows: int, axis: int, schedule: int, row_tile: int) -> bytes:
    """ArgMaxWithValueTilingData (op_kernel/arg_max_with_value_tiling_data.h): 16 uint32 fields; one core takes every
    row (perCore = rows, bigCores 0: the uniform split), row_tile rows a tile, or one row a core (ONE_ROW_PER_CORE)."""
    per_core, used = (1, rows) if schedule in ONE_ROW_PER_CORE else (rows, 1)
    fields = dict(tilingMode=schedule, firstDim=rows, axisSize=axis, lastDim=1, outSize=rows, usedCoreNum=used,
                  perCore=per_core, bigCores=0, rowTile=row_tile, innerTile=0, axisTile=0, apiTmpSize=0, splitAxis=0,
                  axisPerCore=0, nlBf=0, nlIPad=0)
    return struct.pack("<16I", *fields.values())


NUMPY_TYPES = {"half": np.float16, "float": np.float32, "int16_t": np.int16}   # DTYPE_X of the op's dtype columns


def main(gitdir: str, rows: int = 16, axis: int = 37, schedule: int = LAST_DIRECT, row_tile: int = 16,
         column: int = 0, repeat: int = 1) -> int:
    failures = 0
    for op, want in (("arg_max_with_value", (np.max, np.argmax)), ("arg_min_with_value", (np.min, np.argmin))):
        entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["path"] == f"experimental/math/{op}")
        project = load_project(corpus.materialise(entry, gitdir, Path(tempfile.mkdtemp(prefix="argmax_"))))
        settings = load_settings()
        dtypes = dtype_macros(project.op, column)   # the dtype column's DTYPE_<NAME> macros (column 0: half)
        if dtypes["DTYPE_X"] not in NUMPY_TYPES:
            print(f"{op}: dtype column {column} is {dtypes['DTYPE_X']}: not run here (NumPy has no such type)")
            failures += 1
            continue
        np_type = NUMPY_TYPES[dtypes["DTYPE_X"]]
        macros = " ".join(f"-D{k}={v}" for k, v in dtypes.items())
        macros += f" -DASCENDCRAFT_OP_TYPE={project.op.type} -DASCENDCRAFT_TILING_DEFAULT"
        sources = {k: v for k, v in project.sources.items() if not k.startswith("op_host/") or k.endswith(".h")}
        instance = next(i for i in tpl_instances(sources, tpl_header(sources, project.kernel_file), settings=settings,
                                                 macros=dtypes)
                        if i.args == (str(schedule), "false"))
        name = f"{project.entry}<{', '.join(instance.args)}>"
        # the entry that runs the instance of the launch's key
        inner = template_entry(project, sources, settings=settings, macros=dtypes)
        t0 = time.time()
        kb = build(sources, inner, settings=settings.replace(cxxflags=f"{settings.cxxflags} {macros}"),
                   tiling_key=instance.key)
        print(f"{op}: build ok={kb.ok} ({time.time() - t0:.0f} s), instance {name}, key {instance.key}")
        if not kb.ok:
            print("\n".join(x.render() for x in kb.errors[:3]))
            failures += 1
            continue
        rng = np.random.default_rng(38)
        x = (rng.standard_normal((rows, axis)) * (1000 if np_type == np.int16 else 1)).astype(np_type)
        value, index = want
        differing = 0
        for attempt in range(repeat):
            t0 = time.time()
            r = run(kb, [GM("x", x), GM("indice", shape=(rows,), dtype=np.int32, role="out"),
                         GM("values", shape=(rows,), dtype=np_type, role="out"), Workspace(16 * 1024 * 1024),
                         Tiling(tiling_bytes(rows, axis, schedule, row_tile))],
                    block_dim=rows if schedule in ONE_ROW_PER_CORE else 1, tiling_key=instance.key)
            if repeat == 1:
                print(f"{op}: run ok={r.ok} ({time.time() - t0:.1f} s)")
            if not r.ok:
                print(f"{op}: run {attempt + 1}: " + "\n".join(d.render() for d in r.diagnostics[:3]))
                differing += 1
                continue
            ok_v = np.array_equal(r.outputs["values"], value(x, axis=1))
            ok_i = np.array_equal(r.outputs["indice"], index(x, axis=1))
            if repeat == 1 or not (ok_v and ok_i):
                print(f"{op}: values {'match' if ok_v else 'DIFFER'}, indices {'match' if ok_i else 'DIFFER'} "
                      f"({rows} rows of {axis} {dtypes['DTYPE_X']}, NumPy's {value.__name__} / {index.__name__})"
                      + (f", run {attempt + 1}" if repeat > 1 else ""))
            if not ok_i:
                bad = np.flatnonzero(r.outputs["indice"] != index(x, axis=1))
                print(f"{op}: rows {bad.tolist()}: indices {r.outputs['indice'][bad].tolist()}, NumPy's "
                      f"{index(x, axis=1)[bad].tolist()}")
            differing += not (ok_v and ok_i)
        if repeat > 1:
            print(f"{op}: {differing} of {repeat} runs differ from NumPy")
        failures += differing
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], *(int(a) for a in sys.argv[2:8])))
