"""What the corpus harness's tests share: examples/corpus/corpus.py (and catlass.py beside it) loaded as modules (they
are scripts, not a package), and a small one-commit git repository standing in for a mirrored source."""
import importlib.util
import subprocess
import sys
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parents[1] / "examples" / "corpus"
CORPUS_PY = CORPUS_DIR / "corpus.py"


def load_corpus(name: str):
    "examples/corpus/corpus.py as a module of its own, named `name`."
    spec = importlib.util.spec_from_file_location(name, CORPUS_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_beside(name: str):
    """A module beside corpus.py (catlass.py, asc_run.py, npukb.py, pybind_calls.py, ...), imported as the harness imports
    it: by its name, with examples/corpus on the path (it imports corpus.py in turn)."""
    import importlib
    if str(CORPUS_DIR) not in sys.path: sys.path.insert(0, str(CORPUS_DIR))
    return importlib.import_module(name)


def load_catlass():
    "examples/corpus/catlass.py, the CATLASS examples' build and host-code reader (it imports corpus.py beside it)."
    return load_beside("catlass")


def git_repo(root: Path, files: dict) -> tuple[str, str]:
    "A git repository at `root` holding `files` ({path: text}) in one commit: (its git dir, the commit)."
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "files"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    return str(root / ".git"), commit
