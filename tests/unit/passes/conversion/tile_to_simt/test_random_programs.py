"""Seeded random chains of layout-moving tile ops (permute, reshape, broadcast, reduce, scan, cat, and
elementwise ops between differently laid out tiles) over random power-of-two shapes and warp counts, lowered
and run on the emulator against the same chain in numpy."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.unit.passes.conversion.tile_to_simt.harness import run_unary, tensor, unary_kernel

PROGRAMS = 24
MAX_ELEMENTS = 4096


def _program(seed: int) -> tuple[list[int], int, str, list[int], object]:
    """(source shape, warps, body text, result shape, numpy function of the source)."""
    rng = random.Random(seed)
    rank = rng.randint(1, 3)
    shape = [2 ** rng.randint(0, 4) for _ in range(rank)]
    while np.prod(shape) > MAX_ELEMENTS:
        shape[rng.randrange(rank)] //= 2
    warps = rng.choice([1, 2, 4, 8])
    lines: list[str] = []
    steps: list = []
    var, cur = "%a", list(shape)
    for n in range(rng.randint(2, 5)):
        kind = rng.choice(["permute", "reshape", "reduce", "scan", "broadcast", "mix", "cat"])
        new = f"%v{n}"
        if kind == "permute" and len(cur) > 1:
            perm = list(range(len(cur)))
            rng.shuffle(perm)
            out = [cur[p] for p in perm]
            lines.append(f'      {new} = "tile.permute"({var}) {{perm = array<i64: {", ".join(map(str, perm))}>}} : '
                         f'({tensor(cur)}) -> {tensor(out)}')
            steps.append(lambda r, perm=perm: np.transpose(r, perm))
        elif kind == "reshape":
            out = [1] * rng.randint(1, 3)
            for _ in range(int(np.prod(cur)).bit_length() - 1):
                out[rng.randrange(len(out))] *= 2
            lines.append(f'      {new} = "tile.reshape"({var}) : ({tensor(cur)}) -> {tensor(out)}')
            steps.append(lambda r, out=out: r.reshape(out))
        elif kind == "reduce" and len(cur) > 1:
            d = rng.randrange(len(cur))
            out = cur[:d] + cur[d + 1:]
            how = rng.choice(["sum", "max"])
            lines.append(f'      {new} = "tile.reduce"({var}) {{dim = {d} : i64, kind = "{how}", unsigned = false}} : '
                         f'({tensor(cur)}) -> {tensor(out)}')
            steps.append(lambda r, d=d, how=how: r.sum(d) if how == "sum" else r.max(d))
        elif kind == "scan":
            d = rng.randrange(len(cur))
            out = cur
            lines.append(f'      {new} = "tile.scan"({var}) {{dim = {d} : i64, kind = "sum", reverse = 0 : i64, '
                         f'unsigned = false}} : ({tensor(cur)}) -> {tensor(out)}')
            steps.append(lambda r, d=d: np.cumsum(r, d, dtype=np.float32))
        elif kind == "broadcast" and len(cur) < 3 and 4 * np.prod(cur) <= 2 * MAX_ELEMENTS:
            out = [2 ** rng.randint(1, 2)] + cur
            lines.append(f'      {new} = "tile.broadcast"({var}) : ({tensor(cur)}) -> {tensor(out)}')
            steps.append(lambda r, out=out: np.broadcast_to(r, out).copy())
        elif kind == "mix" and len(cur) == 2:
            # exp of the transpose, transposed back, added to the tile: two layouts meet in one addf.
            out, flipped = cur, [cur[1], cur[0]]
            lines += [f'      %t{n} = "tile.permute"({var}) {{perm = array<i64: 1, 0>}} : ({tensor(cur)}) -> {tensor(flipped)}',
                      f'      %e{n} = math.exp %t{n} : {tensor(flipped)}',
                      f'      %u{n} = "tile.permute"(%e{n}) {{perm = array<i64: 1, 0>}} : ({tensor(flipped)}) -> {tensor(cur)}',
                      f'      {new} = arith.addf {var}, %u{n} : {tensor(cur)}']
            steps.append(lambda r: r + np.exp(r))
        elif kind == "cat" and np.prod(cur) <= MAX_ELEMENTS // 2:
            d = rng.randrange(len(cur))
            out = list(cur)
            out[d] *= 2
            lines += [f'      %g{n} = arith.negf {var} : {tensor(cur)}',
                      f'      {new} = "tile.cat"({var}, %g{n}) {{dim = {d} : i64}} : ({tensor(cur)}, {tensor(cur)}) -> {tensor(out)}']
            steps.append(lambda r, d=d: np.concatenate([r, -r], d))
        else:
            continue
        var, cur = new, out
    lines.append(f'      %r = arith.addf {var}, {var} : {tensor(cur)}')
    steps.append(lambda r: r + r)

    def reference(x):
        for step in steps:
            x = step(x)
        return x

    return shape, warps, "\n".join(lines), cur, reference


@pytest.mark.parametrize("seed", range(PROGRAMS))
def test_random_layout_program(seed):
    shape, warps, body, out, reference = _program(seed)
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    z = run_unary(unary_kernel(shape, out, body, warps=warps), x, out, warps=warps)
    np.testing.assert_allclose(z, reference(x), rtol=1e-4, atol=1e-3, err_msg=body)
