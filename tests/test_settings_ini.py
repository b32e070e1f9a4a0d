"""The settings.ini the project ships states the defaults of `ascendcraft.config.Settings`, so a default changed in one
place only is caught: the twenty-seventh round raised `build_memory_mb` to 4096 MiB in the dataclass while settings.ini,
which overrides it, kept 3072, and ops-transformer's incre_flash_attention still ran out of memory."""
import dataclasses
from pathlib import Path

from ascendcraft.config import Settings, load_settings

INI = Path(__file__).resolve().parents[1] / "settings.ini"


def test_the_shipped_settings_ini_agrees_with_the_defaults():
    shipped, default = load_settings(INI, env={}), Settings()
    differ = {f.name: (getattr(shipped, f.name), getattr(default, f.name)) for f in dataclasses.fields(Settings) if f.name != "sources"   # (where each value came from)
              if getattr(shipped, f.name) != getattr(default, f.name)}
    assert not differ, f"settings.ini vs Settings defaults: {differ}"
    assert shipped.build_memory_mb == 4096
