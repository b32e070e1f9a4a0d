"""examples/corpus/matmul_api.py, the Matmul-API subset's runner: it tells the corpus harness where every mirrored
repository is (so an op whose headers come from a submodule repository, vllm-ascend's catlass, is materialised as
`corpus.py run --git` would), and applies --only before deciding membership (which materialises each entry); each finished entry is a line naming the
failed step's first error and a record in <out>.jsonl."""
import json
import sys

from _corpus import CORPUS_DIR

if str(CORPUS_DIR) not in sys.path: sys.path.insert(0, str(CORPUS_DIR))
import matmul_api  # noqa: E402


def _mirror(root, repo):
    d = root / repo.replace("/", "+") / "repo"
    d.mkdir(parents=True)
    return str(d)


def test_known_gitdirs_holds_every_mirrored_or_given_repository(tmp_path, monkeypatch):
    monkeypatch.setattr(matmul_api, "MIRRORS", tmp_path)
    vllm, catlass = _mirror(tmp_path, "vllm-project/vllm-ascend"), _mirror(tmp_path, "hicann/catlass")
    given = tmp_path / "elsewhere"
    given.mkdir()
    manifest = [{"repo": "vllm-project/vllm-ascend"}, {"repo": "hicann/catlass"}, {"repo": "absent/repo"}]
    got = matmul_api.known_gitdirs(manifest, {"given/repo": str(given)})
    # the submodule's repository is there although no entry of the run needs it for itself; an absent one is not
    assert got == {"vllm-project/vllm-ascend": vllm, "hicann/catlass": catlass, "given/repo": str(given)}


def test_only_is_applied_before_membership_and_each_entry_is_printed(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(matmul_api, "MIRRORS", tmp_path)
    _mirror(tmp_path, "o/r")
    manifest = tmp_path / "manifest.json"
    entries = [{"repo": "o/r", "path": p, "source": "src", "kind": "op-project"} for p in ("ops/mm_a", "ops/mm_b", "ops/add")]
    manifest.write_text(json.dumps(entries))
    monkeypatch.setattr(matmul_api.corpus, "MANIFEST", manifest)
    asked = []
    monkeypatch.setattr(matmul_api, "uses_matmul_api", lambda e, g: asked.append(e["path"]) or True)

    def fake_run(todo, jobs, cap):
        for i, (e, *_rest) in enumerate(todo):
            yield i, dict(e, kernel_ok=e["path"].endswith("a"), kernel_error="'Foo' was not declared in this scope",
                          project_ok=False, project_error="tiling.cpp:9: error: 'Bar' has not been declared", seconds=1.0)
    monkeypatch.setattr(matmul_api.corpus, "run_entries", fake_run)
    assert matmul_api.main(["--only", "mm_", "--jobs", "1", "--out", str(tmp_path / "out.json")]) == 0
    assert asked == ["ops/mm_a", "ops/mm_b"]          # ops/add was never materialised
    out = capsys.readouterr().out
    assert "2 Matmul-API entries" in out
    # a kernel that compiles in a project that does not: the line names the project's first error, not the kernel's
    assert "ok   kernel, FAIL project" in out and "o/r:ops/mm_a  project: undeclared Bar" in out
    assert "FAIL kernel" in out and "o/r:ops/mm_b  undeclared Foo" in out
    assert [r["path"] for r in json.loads((tmp_path / "out.json").read_text())["compile"]] == ["ops/mm_a", "ops/mm_b"]
    # and each result was written, errors and all, to out.jsonl as it finished
    lines = [json.loads(l) for l in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["path"], r["project_error"]) for r in lines] == [("ops/mm_a", "tiling.cpp:9: error: 'Bar' has not been declared"),
                                                               ("ops/mm_b", "tiling.cpp:9: error: 'Bar' has not been declared")]


def test_subset_file_keeps_the_choice_for_the_same_entries_only(tmp_path, monkeypatch):
    "--subset FILE: the second run over the same entries reads the choice; other entries (or mirrors) choose again."
    monkeypatch.setattr(matmul_api, "MIRRORS", tmp_path)
    _mirror(tmp_path, "o/r")
    entries = [{"repo": "o/r", "commit": "c1", "path": p} for p in ("ops/mm_a", "ops/add", "ops/mm_b")]
    asked = []
    monkeypatch.setattr(matmul_api, "uses_matmul_api", lambda e, g: asked.append(e["path"]) or "mm_" in e["path"])
    cache = tmp_path / "subset.json"
    first = matmul_api.choose(entries, {}, cache)
    assert [e["path"] for e in first] == ["ops/mm_a", "ops/mm_b"] and len(asked) == 3
    again = matmul_api.choose(entries, {}, cache)
    assert again == first and len(asked) == 3                   # read from the file: nothing materialised
    moved = [dict(e, commit="c2") for e in entries]             # the same paths at another commit: chosen again
    assert [e["commit"] for e in matmul_api.choose(moved, {}, cache)] == ["c2", "c2"] and len(asked) == 6
    _mirror(tmp_path, "o/other")                                 # a mirror more is no reason to choose again...
    matmul_api.choose(moved, {}, cache)
    assert len(asked) == 6
    more = moved + [{"repo": "o/other", "commit": "c3", "path": "ops/mm_c"}]   # ...but an entry in it is
    assert [e["path"] for e in matmul_api.choose(more, {}, cache)] == ["ops/mm_a", "ops/mm_b", "ops/mm_c"]
