"""Philox4x32-10 on the host, in numpy with exact uint32 arithmetic: the reference stream of oxide.tile.rand
and randn, which the GPU kernels of philox.rs reproduce (uniforms bit for bit, normals within the bound
docs/tile-runtime.md states).

Element i of a stream is word i % 4 of Philox4x32-10(counter = (i // 4 mod 2^32, i // 4 >> 32, 0, 0),
key = (seed mod 2^32, seed >> 32)).
"""

from __future__ import annotations

import numpy as np

# The Philox4x32 multipliers and Weyl key increments (Salmon et al., SC 2011).
M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
ROUNDS = 10
# 2^-24: a uniform is the top 24 bits of a word times this, exactly representable in f32.
UNIT = np.float32(2.0 ** -24)
TWO_PI = np.float32(2 * np.pi)
_LOW = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


def philox4x32(counters: np.ndarray, key: tuple[int, int], rounds: int = ROUNDS) -> np.ndarray:
    """Philox4x32-`rounds` of each row of `counters` (shape (n, 4), uint32) under `key`: (n, 4) uint32."""
    c = [np.asarray(counters, np.uint32)[:, j].copy() for j in range(4)]
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    with np.errstate(over="ignore"):
        for r in range(rounds):
            if r:
                k0, k1 = k0 + W0, k1 + W1
            p0 = M0 * c[0].astype(np.uint64)
            p1 = M1 * c[2].astype(np.uint64)
            hi0, lo0 = (p0 >> _SHIFT).astype(np.uint32), (p0 & _LOW).astype(np.uint32)
            hi1, lo1 = (p1 >> _SHIFT).astype(np.uint32), (p1 & _LOW).astype(np.uint32)
            c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
    return np.stack(c, axis=1)


def split_seed(seed: int) -> tuple[int, int]:
    """A 64-bit seed as the key words (low, high)."""
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"a seed is an integer in [0, 2^64), got {seed}")
    return seed & 0xFFFFFFFF, seed >> 32


def words(count: int, seed: int) -> np.ndarray:
    """The first `count` 32-bit words of the stream of `seed` (uint32)."""
    blocks = np.arange((count + 3) // 4, dtype=np.uint64)
    counters = np.zeros((blocks.size, 4), np.uint32)
    counters[:, 0] = (blocks & _LOW).astype(np.uint32)
    counters[:, 1] = (blocks >> _SHIFT).astype(np.uint32)
    return philox4x32(counters, split_seed(seed)).reshape(-1)[:count]


def unit(bits: np.ndarray) -> np.ndarray:
    """Words as f32 in [0, 1): the top 24 bits times 2^-24 (exact)."""
    return (bits >> np.uint32(8)).astype(np.float32) * UNIT


def uniform(count: int, seed: int) -> np.ndarray:
    """The first `count` uniforms in [0, 1) of the stream of `seed` (f32, as philox_uniform writes them)."""
    return unit(words(count, seed))


def normal(count: int, seed: int, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
    """The first `count` normals of the stream of `seed` (f32, as philox_normal computes them): Box-Muller on
    the word pairs (0, 1) and (2, 3) of each block, u1 = unit + 2^-24 in (0, 1], u2 = unit in [0, 1), the even
    element r cos(2 pi u2) and the odd r sin(2 pi u2), r = sqrt(-2 ln u1); then mean + std * z in f32. The
    logarithm, root and trigonometry run in float64 and round once, so each z is within half an ulp of the
    exact value for these f32 inputs."""
    pairs = unit(words(4 * ((count + 3) // 4), seed)).reshape(-1, 2)
    u1 = (pairs[:, 0] + UNIT).astype(np.float64)
    theta = (TWO_PI * pairs[:, 1]).astype(np.float64)  # the f32 product, as on the GPU
    r = np.sqrt(-2.0 * np.log(u1))
    z = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1).reshape(-1)[:count].astype(np.float32)
    return np.float32(mean) + np.float32(std) * z
