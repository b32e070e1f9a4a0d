"""Recording the sandboxed runs a build makes (g++ compiles, links, preprocessing), for tests that count them.

A module of its own, not a function of tests/conftest.py: `from conftest import ...` may find tests/browser/conftest.py
under xdist (both are modules named `conftest`), as test_parallel_groups.py notes."""


def record_sandbox_runs(monkeypatch, pick) -> list:
    """The sandboxed runs (`ascendcraft.sandbox.run`: g++ compiles, links, preprocessing) for which `pick(argv)` gives
    something other than None, that something recorded as they happen; the runs themselves go ahead."""
    from ascendcraft import sandbox
    seen, real = [], sandbox.run
    def recording(argv, **kw):
        if (got := pick(argv)) is not None: seen.append(got)
        return real(argv, **kw)
    monkeypatch.setattr(sandbox, "run", recording)
    return seen
