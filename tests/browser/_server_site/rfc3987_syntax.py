"""Stands in for `rfc3987_syntax` in the Voila and JupyterLab servers the browser tests start (and the kernels those
start): tests/browser/conftest.py puts this folder first on their PYTHONPATH.

jsonschema imports `rfc3987_syntax` when it is there, only to register the `iri` and `iri-reference` format checks, and
its import compiles ~38 Earley grammars: 1.5-2.4 CPU-s in every server start (jupyter_server validates its events with
jsonschema). No schema in this environment asks for those formats (jupyter-events' own meta-schema checks `uri`, which
`rfc3986_validator` does), so the servers behave the same without them. Raising ImportError is what jsonschema sees
where the package is not installed: it skips those two checks. The Ray test nodes do the same (tests/_ray_node)."""
raise ImportError("rfc3987_syntax is left out of the browser tests' servers (see tests/browser/_server_site/rfc3987_syntax.py)")
