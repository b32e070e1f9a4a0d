"""SoC profiles: every shipped number has a unit and a source, inheritance works, broken files are diagnosed."""
from pathlib import Path

import pytest

from ascendcraft.config import Settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.soc import list_socs, load_soc, quantity_fields


@pytest.mark.parametrize("name", ["Ascend910B2", "Ascend910B3", "Ascend910B4"])
def test_every_number_has_a_source(name):
    soc = load_soc(name)
    for f in quantity_fields():
        value = getattr(soc, f.name)
        assert isinstance(value, (int, float)) and value > 0, f.name
        source = soc.sources[f.name]
        assert len(source) > 10, (f.name, source)
    for api in soc.vector_ops:
        assert soc.sources[f"vector_ops.{api}"].strip()
    table = soc.table()
    for f in quantity_fields():
        assert f"`{f.name}`" in table


def test_910b2_numbers_from_the_research_notes():
    soc = load_soc("Ascend910B2")
    assert (soc.vector_cores, soc.cube_cores, soc.clock_hz) == (48, 24, 1.8e9)
    assert (soc.ub_bytes, soc.ub_runtime_bytes, soc.vector_bytes_per_cycle) == (196608, 196352, 256)
    assert soc.gm_aligned32_efficiency == 0.7 and soc.small_copy_bytes == 16384
    # fitted to what long streams were measured to reach on 910B (1.22-1.43 TB/s, socs/calibration/910b.csv),
    # below the 1.5-1.8 TB/s peaks of the research notes
    assert 1.2e12 <= soc.hbm_bytes_per_s <= 1.5e12
    assert soc.sources["hbm_bytes_per_s"].startswith("fitted") and "calibration" in soc.sources["hbm_bytes_per_s"]
    # 48 cores at the per-core MTE rate must be able to oversubscribe HBM, one core must not
    per_core = soc.mte2_bytes_per_cycle * soc.clock_hz
    assert per_core < soc.hbm_bytes_per_s < soc.vector_cores * per_core
    # simple ops 1 repeat/cycle, transcendental and reductions dearer, reductions 2-5x Add
    assert soc.vector_ops["Add"] == 1
    assert min(soc.vector_ops[k] for k in ("Exp", "Ln", "Sqrt", "Div", "Reciprocal", "Rsqrt")) > 1
    assert all(2 <= soc.vector_ops[k] <= 5 for k in ("WholeReduceSum", "WholeReduceMax", "ReduceSum", "BlockReduceSum"))
    assert soc.sources["launch_us"].startswith("fitted")
    # the saturating curve: a long stream gets close to the fitted rate, a 1 MB transfer less than half of it
    assert soc.hbm_effective_bytes_per_s(4e9) > 0.99 * soc.hbm_bytes_per_s
    assert soc.hbm_effective_bytes_per_s(1e6) < 0.5 * soc.hbm_bytes_per_s
    # short contiguous runs cost more per byte than long ones (access pattern)
    assert soc.hbm_us(1e9, run_bytes=128) > 1.5 * soc.hbm_us(1e9, run_bytes=65536)


def test_inherited_profiles_say_where_numbers_came_from():
    b2, b3, b4 = (load_soc(n) for n in ("Ascend910B2", "Ascend910B3", "Ascend910B4"))
    assert (b3.vector_cores, b3.cube_cores) == (40, 20)
    assert b3.ub_bytes == b2.ub_bytes and b3.origins["ub_bytes"] == "Ascend910B2"
    assert b3.origins["vector_cores"] == "Ascend910B3"
    assert b4.hbm_bytes < b3.hbm_bytes and b4.hbm_bytes_per_s < b3.hbm_bytes_per_s < b2.hbm_bytes_per_s
    assert "(from Ascend910B2)" in b4.table()
    assert set(list_socs()) >= {"Ascend910B2", "Ascend910B3", "Ascend910B4"}


def test_default_comes_from_settings():
    assert load_soc(settings=Settings()).name == "Ascend910B2"
    assert load_soc(settings=Settings(soc="Ascend910B4")).name == "Ascend910B4"


def test_profile_from_a_path_and_replace(tmp_path):
    own = tmp_path / "Mine.toml"
    own.write_text('name = "Mine"\nbase = "Ascend910B2"\n[memory]\n'
                   'hbm_bytes_per_s = { value = 1.2e12, unit = "bytes/s", source = "my measurement" }\n')
    mine = load_soc(own)
    assert mine.name == "Mine" and mine.hbm_bytes_per_s == 1.2e12 and mine.vector_cores == 48
    faster = mine.replace(hbm_bytes_per_s=2e12)
    assert faster.hbm_bytes_per_s == 2e12 and faster.sources["hbm_bytes_per_s"] == "argument"
    assert mine.hbm_bytes_per_s == 1.2e12
    with pytest.raises(Exception):
        mine.vector_cores = 1          # frozen


def _kinds(path: Path) -> list[str]:
    with pytest.raises(AscendCraftError) as e:
        load_soc(path)
    return sorted(e.value.kinds)


def test_broken_profiles_are_diagnosed(tmp_path):
    p = tmp_path / "Bad.toml"
    p.write_text('name = "Bad"\nbase = "Ascend910B2"\n[memory]\n'
                 'hbm_bytes_per_s = { value = 1600, unit = "GB/s", source = "x" }\n')
    assert _kinds(p) == ["soc-unit"]
    p.write_text('name = "Bad"\nbase = "Ascend910B2"\n[x]\nclock_hz = { value = 1.8e9, unit = "Hz" }\n')
    assert _kinds(p) == ["soc-entry"]
    p.write_text('name = "Bad"\nbase = "Ascend910B2"\n[x]\nclock_hz = { value = "fast", unit = "Hz", source = "x" }\n')
    assert _kinds(p) == ["soc-value"]
    p.write_text('name = "Bad"\nbase = "Ascend910B2"\n[x]\nsmall_copy_min_efficiency = { value = 0, unit = "fraction", source = "x" }\n')
    assert _kinds(p) == ["soc-value"]
    p.write_text('name = "Bad"\n[cores]\nvector_cores = { value = 4, unit = "cores", source = "x" }\n')
    assert set(_kinds(p)) == {"soc-missing-key"}
    p.write_text('name = "Bad"\nbase = "Bad"\n')
    assert _kinds(p) == ["soc-base-cycle"]
    p.write_text('name = "Bad"\n[cores\n')
    assert _kinds(p) == ["soc-parse"]
    with pytest.raises(AscendCraftError) as e:
        load_soc("Ascend123")
    assert e.value.kinds == ["soc-unknown"] and "Ascend910B2" in e.value.diagnostics[0].hint


def test_diagnostic_points_at_the_line(tmp_path):
    p = tmp_path / "Bad.toml"
    p.write_text('name = "Bad"\nbase = "Ascend910B2"\n\n[memory]\n'
                 'mte2_bytes_per_cycle = { value = 32, unit = "B/cycle", source = "x" }\n')
    with pytest.raises(AscendCraftError) as e:
        load_soc(p)
    d = e.value.diagnostics[0]
    assert (d.file, d.line) == (str(p), 5) and "mte2_bytes_per_cycle" in d.source_line
