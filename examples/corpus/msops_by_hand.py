"""MindSpore's ms_custom_ops (community.py, the forty-first round's helper newsrc) run whole on the emulator, their
TilingFunc and then their kernel, against NumPy references of what the ops do (restated from the op's documentation
and its tests/st test's golden functions, not copied), under community_by_hand.py's rule (data moves: equal).

ReshapeAndCacheNpd (built for the 910B): every token's key and value row is written into its slot of the paged caches
(`slot_mapping`; slot -1: no write), then the pages of each prefill sequence (`actual_seq_qlen` not 1; a decode
sequence's pages are skipped), in `block_tbl`'s order, are copied out of the caches into `out_key` / `out_value`, one
page after another; `kv_cache_layout` "BNSD" keeps the caches as [block, head, page, dim], another as
[block, page, head, dim]; `key_value_layout` "NPD" writes each output page as [head, page, dim], another as
[page, head, dim]. The outputs are given the rows the kernel writes (the pages of the prefill sequences), where the
op's InferShape gives every block's.

    python examples/corpus/msops_by_hand.py [--only NAME] [--keep DIR] [--git OWNER/NAME=DIR]
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from community_by_hand import close, run_cases  # noqa: E402
from hicann_by_hand import run_ops_main  # noqa: E402

MS = "mindspore-ai/ms_custom_ops"


def reshape_and_cache_npd(rng, seqs, decode, heads, dim, page, dtype, cache_npd, kv_npd, dropped=0):
    """One case: sequences of `seqs` tokens (the ones in `decode` are decode steps: q length 1), `heads` x `dim` per
    token, pages of `page` slots; the blocks of all sequences shuffled over the cache; `dropped` tokens get slot -1.
    Returns the inputs in the OpDef's order, the attributes, and the two outputs."""
    pages = [-(-s // page) for s in seqs]
    blocks = rng.permutation(sum(pages))
    width = max(pages)
    block_tbl = np.zeros((len(seqs), width), np.int32)
    at = 0
    for b, n in enumerate(pages):
        block_tbl[b, :n] = blocks[at:at + n]
        at += n
    slots = np.concatenate([block_tbl[b, np.arange(s) // page] * page + np.arange(s) % page for b, s in enumerate(seqs)])
    slots = slots.astype(np.int32)
    if dropped: slots[rng.choice(slots.size, dropped, replace=False)] = -1
    make = (lambda shape: rng.integers(-128, 128, shape).astype(np.int8)) if dtype == np.int8 else \
        (lambda shape: rng.uniform(-4, 4, shape).astype(dtype))
    tokens = sum(seqs)
    key, value = make((tokens, heads * dim)), make((tokens, heads * dim))
    # the caches as [block, page, head, dim] here; in the op's layout below
    caches = [make((len(blocks), page, heads, dim)) for _ in range(2)]
    given = [c.transpose(0, 2, 1, 3).copy() if cache_npd else c.copy() for c in caches]
    outs = []
    for rows, cache in zip((key, value), caches):
        after = cache.reshape(-1, heads, dim).copy()
        for t, s in enumerate(slots):
            if s >= 0: after[s] = rows[t].reshape(heads, dim)
        after = after.reshape(cache.shape)
        out = [after[block_tbl[b, i]] for b, n in enumerate(pages) if b not in decode for i in range(n)]
        out = [p.transpose(1, 0, 2) if kv_npd else p for p in out]
        outs.append(np.stack(out).reshape(-1, heads * dim))
    q_seq = np.array([1 if b in decode else s for b, s in enumerate(seqs)], np.int64)
    inputs = {"key": key, "value": value, "key_cache": given[0], "value_cache": given[1], "slot_mapping": slots,
              "actual_seq_qlen": q_seq, "actual_seq_kvlen": np.array(seqs, np.int64), "block_tbl": block_tbl}
    attrs = {"kv_cache_layout": "BNSD" if cache_npd else "BSND", "key_value_layout": "NPD" if kv_npd else "TH"}
    return inputs, attrs, {"out_key": outs[0], "out_value": outs[1]}


OPS = {
    "ReshapeAndCacheNpd (ms_custom_ops)": (MS, "ops/ascendc/aclnn_src/reshape_and_cache_npd", [
        # its tests/st shape: 32 heads of 128, pages of 16 (a page is copied out in two rounds: 12 tokens fill a half
        # of the UB, then 4); every layout pair (the four tiling keys of half)
        ("half 3 x 16 tokens, 32 x 128, cache BNSD, out NPD",
         lambda r: reshape_and_cache_npd(r, [16, 16, 16], (), 32, 128, 16, np.float16, True, True)),
        ("half 3 x 16 tokens, 32 x 128, cache BSND, out TH",
         lambda r: reshape_and_cache_npd(r, [16, 16, 16], (), 32, 128, 16, np.float16, False, False)),
        ("half [20, 7, 33] tokens, 4 x 32, cache BNSD, out TH, 5 dropped",
         lambda r: reshape_and_cache_npd(r, [20, 7, 33], (), 4, 32, 16, np.float16, True, False, dropped=5)),
        ("half [20, 7, 33] tokens, 4 x 32, cache BSND, out NPD, sequence 1 a decode step",
         lambda r: reshape_and_cache_npd(r, [20, 7, 33], (1,), 4, 32, 16, np.float16, False, True)),
        ("int8 [40, 9] tokens, 2 x 64, cache BNSD, out NPD",
         lambda r: reshape_and_cache_npd(r, [40, 9], (), 2, 64, 16, np.int8, True, True))]),
}


def run_op(g_, name: str):
    # the caches are written in place (its ms_glue yaml: `rw_write: key_cache, value_cache`)
    yield from run_cases(g_, name, OPS, seed=4100, out_dtype={}, check=close, written_inputs=("key_cache", "value_cache"))


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_op))
