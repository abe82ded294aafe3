"""cutile-rs's flash attention examples (flash_attention, flash_attention_causal) as cutile_run.py cases; see
cutile_cases.py for what a case is.

Both kernels take f32 q, k, v of shape (batch, heads, seq, head_dim) and write (batch * heads, seq, head_dim);
the reference is softmax(q k^T * scale) v in float64, causal rows masking keys past `row + input_pos`. The
host code's tolerances are kept (1e-4 absolute for flash_attention, 2e-3 absolute + 2e-3 relative for the causal
example); both `mma`s of the kernel multiply their f32 operands at f32 accuracy (3xTF32 on the Tensor Cores,
docs/tile-mma.md), as cutile-rs's do, so the 1e-4 check holds.
"""

from __future__ import annotations

import numpy as np

from cutile_cases import Arrays, Case, Env, Sizes, Tol, entry, instance, merge, part, randn


def attention_reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, causal: bool,
                        input_pos: int) -> np.ndarray:
    """(b * h, m, d) attention in float64; key j is masked for query row i when causal and j > i + input_pos."""
    b, h, m, d = q.shape
    group = h // k.shape[1]
    k = np.repeat(k, group, axis=1).astype(np.float64)
    v = np.repeat(v, group, axis=1).astype(np.float64)
    scores = np.einsum("bhid,bhjd->bhij", q.astype(np.float64), k) * scale
    if causal:
        rows, cols = np.arange(m)[:, None], np.arange(k.shape[2])[None, :]
        scores = np.where(cols > rows + input_pos, -np.inf, scores)
    scores -= scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("bhij,bhjd->bhid", p, v).reshape(b * h, m, d)


def _inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    b, h, m, d = s["batch"], s["heads"], s["seq"], s["d"]
    return {"q": randn(rng, (b, h, m, d)), "k": randn(rng, (b, h, m, d)), "v": randn(rng, (b, h, m, d)),
            "out": randn(rng, (b * h, m, d))}


def _scale(s: Sizes) -> np.float32:
    return np.float32(1.0 / np.sqrt(np.float32(s["d"])))


def _fmha_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    out = a["out"].copy()
    env.kernel(entry("fmha", s["bm"], s["bn"], s["d"]))(part(out, (1, s["bm"], s["d"])), a["q"], a["k"], a["v"],
                                                        _scale(s), np.int32(1))
    return {"out": out}


def _fmha_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"out": attention_reference(a["q"], a["k"], a["v"], float(_scale(s)), False, 0)}


def _causal_generics(s: Sizes, causal: int) -> list[int]:
    return [s["bm"], s["bn"], s["d"], s["heads"], causal, int(s["seq"] % s["bn"] == 0)]


def _causal_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    outs = {}
    for causal, pos in ((0, 0), (1, s["input_pos"])):  # the host code runs non-causal, then causal
        out = a["out"].copy()
        env.kernel(entry("fmha", *_causal_generics(s, causal)))(part(out, (1, s["bm"], s["d"])), a["q"], a["k"],
                                                                 a["v"], _scale(s), np.int32(pos), np.int32(1))
        outs["non-causal" if not causal else "causal"] = out
    return outs


def _causal_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"non-causal": attention_reference(a["q"], a["k"], a["v"], float(_scale(s)), False, 0),
            "causal": attention_reference(a["q"], a["k"], a["v"], float(_scale(s)), True, s["input_pos"])}


def cases() -> list[Case]:
    """The two attention examples."""
    fmha = {"batch": 4, "heads": 32, "seq": 1024, "d": 64, "bm": 128, "bn": 64}
    causal = {"batch": 2, "heads": 8, "seq": 64, "d": 32, "bm": 32, "bn": 32, "input_pos": 5}
    host_tol = Tol(2e-3, 2e-3, "the host code's atol 2e-3 + rtol 2e-3")
    return [
        Case("flash_attention", "fmha<BM=128, BN=64, D=64>", fmha,
             lambda s: instance("fmha", s["bm"], s["bn"], s["d"]), _inputs, _fmha_run, _fmha_reference,
             {"out": Tol(0, 1e-4, "the host code's 1e-4")}, emulator={**fmha, "batch": 1, "heads": 2, "seq": 256},
             smaller_why="4 x 32 heads of 1024 x 1024 scores: the emulator runs 1 x 2 heads of 256",
             note="the host code draws q, k and v from one seed (equal tensors); here three independent ones"),
        Case("flash_attention_causal", "fmha<BM=32, BN=32, D=32, H=8, CAUSAL=0|1, EVEN_K=1>", causal,
             lambda s: merge(instance("fmha", *_causal_generics(s, 0)), instance("fmha", *_causal_generics(s, 1))),
             _inputs, _causal_run, _causal_reference, {"non-causal": host_tol, "causal": host_tol},
             note="input_pos 0 (non-causal) and 5 (causal), as the host code runs them; it prints mismatches, "
                  "here they fail the case"),
    ]
