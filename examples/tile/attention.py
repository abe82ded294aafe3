"""attention.rs from Python: flash attention forward, out = softmax(q k^T / sqrt(D)) v, for bf16 q, k, v of
shape (batch, heads, seq, D), non-causal and causal, checked against a float64 reference. numpy has no bf16,
so the inputs travel as their 16-bit patterns (uint16) and the output comes back as such.

Tolerance: the inputs are exact bf16 values, the scores and the softmax are f32, so the error is dominated by
two roundings to bf16 of numbers of magnitude <= max|v|: P (the probabilities, relative error 2^-9, before the
second product) and the output itself (2^-9 relative). With |v| <= ~4 that is about 2 * 4 * 2^-9 = 0.016 at
worst, and a weighted average's errors partly cancel; atol 0.02 with rtol 0.02 holds with room, while a real
bug (a missed rescale, a wrong mask) moves outputs by 0.1 or more."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

B, H, S = 1, 2, 256
# (BM, BN, D) per instance: D = 64 and 128, each non-causal and causal.
INSTANCES = [("attention", 128, 64, 64), ("attention", 128, 64, 128),
             ("attention_causal", 128, 64, 64), ("attention_causal", 128, 64, 128)]


def bf16(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Random bf16 values: their bit patterns (uint16) and their float32 values."""
    bits = (rng.standard_normal(shape, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool) -> np.ndarray:
    """softmax(q k^T / sqrt(D)) v in float64, (B, H, S, D)."""
    s = np.einsum("bhmd,bhnd->bhmn", q.astype(np.float64), k.astype(np.float64)) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return np.einsum("bhmn,bhnd->bhmd", p / p.sum(-1, keepdims=True), v.astype(np.float64))


def run(module: object, name: str, bm: int, bn: int, d: int, rng: np.random.Generator) -> int:
    """Run one instance; the number of outputs outside the tolerance."""
    (qb, q), (kb, k), (vb, v) = (bf16(rng, (B, H, S, d)) for _ in range(3))
    out = np.zeros((B * H, S, d), np.uint16)
    kernel = getattr(module, f"{name}_{bm}_{bn}_{d}")
    kernel(oxide.tile.partition(out, (1, bm, d)), qb, kb, vb, np.float32(np.log2(np.e) / np.sqrt(d)))
    got = (out.astype(np.uint32) << 16).view(np.float32).reshape(B, H, S, d)
    expected = reference(q, k, v, name.endswith("causal"))
    return int(np.count_nonzero(~np.isclose(got, expected, rtol=0.02, atol=0.02)))


def main() -> int:
    instances: dict[str, list[list[str]]] = {}
    for name, bm, bn, d in INSTANCES:
        instances.setdefault(name, []).append([str(bm), str(bn), str(d)])
    module = oxide.load(Path(__file__).with_name("attention.rs"), instances=instances)
    rng = np.random.default_rng(19)
    failed = 0
    for name, bm, bn, d in INSTANCES:
        errors = run(module, name, bm, bn, d, rng)
        print(f"{name} BM={bm} BN={bn} D={d}: {'FAILED, ' + str(errors) + ' errors' if errors else 'ok'}")
        failed += errors
    print(f"FAILED: {failed} errors" if failed else f"PASSED: tile attention, B={B} H={H} S={S} ({module.target})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
