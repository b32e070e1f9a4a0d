"""Stands for a package a Ray node does not have: the test cluster's nodes put this folder first on their PYTHONPATH.

`rfc3987_syntax` comes into this environment with the workbench (`ascendcraft[dev]` -> jupyter-events ->
`jsonschema[format-nongpl]`); a Ray node installed with `pip install 'ascendcraft[ray]'` has plain jsonschema without
it. jsonschema imports it when present (for its `iri` format check, which Ray does not use), and it compiles ~38 Earley
grammars at import: 1.5-1.8 CPU-s in every Ray process of the test cluster (`ray start`, the agents, each worker), about
70 % of `import ray`. Raising ImportError here is what jsonschema sees on such a node (it skips the check)."""
raise ImportError("rfc3987_syntax is not installed on this Ray node (see tests/_ray_node/rfc3987_syntax.py)")
