"""Mask elision (tile_to_simt/mask_elision.py, mask_bounds.py): a select in a loop skips its mask in the steps
where the mask is all-true, and applies it in every other step.

Each kernel below accumulates `select(mask_j, x * (j + 1), 0)` over steps j of a loop, the mask an index chain of
the step (the key offset j * 8) and two scalars `a`, `b`: a step whose mask was skipped where it has a false
element adds a term numpy does not, so the emulated sums tell every step apart. The shapes are those of a block
crossing the diagonal, a partial last block and a sum that wraps around; the attention kernel is checked the
same way, with the condition made unsound on purpose to show that its inputs need every mask they keep.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.frontends.tile.compile import compile_tile
from oxide.passes.conversion.tile_to_simt import mask_bounds, mask_elision
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime import TensorMap
from oxide.runtime.emulator import launch
from tests.unit.passes.conversion.tile_to_simt.harness import context, lower, module_text, run_tile, view

EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"
sys.path.insert(0, str(EXAMPLES))

from attention import reference  # noqa: E402

BM, BN = 16, 8  # a block of rows and one of columns (keys), BM != BN
I, B = f"tensor<{BM}x{BN}xi32>", f"tensor<{BM}x{BN}xi1>"
INT_MAX = 2**31 - 1


def _splat(name: str, scalar: str) -> str:
    return f'        %{name} = "tile.splat"(%{scalar}) : (i32) -> {I}\n'


def _kernel(mask: str) -> str:
    """`k(z, x, a, b, steps)`: z = sum over j < steps of select(mask_j, x * (j + 1), 0); `mask` defines %mask from
    %rows, %cols (the element's coordinates), the scalars %k0 = j * BN, %a and %b, and the constants %c0, %c1."""
    own, src = f"!tile.view_mut<f32, array<i64: {BM}, {BN}>>", "!tile.view<f32, array<i64: -1, -1>>"
    part = f"!tile.partition<f32, array<i64: {BM}, {BN}>>"
    f = f"tensor<{BM}x{BN}xf32>"
    return module_text(f"""    gpu.func @k(%z: {own}, %x: {src}, %a: i32, %b: i32, %steps: i32) kernel attributes {{tile.warps = 1 : i32}} {{
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %cn = arith.constant {BN} : i32
      %p = "tile.make_partition"(%x) : ({src}) -> {part}
      %t = "tile.load"(%p, %c0, %c0) : ({part}, i32, i32) -> {f}
      %zero = arith.constant dense<0.0> : {f}
      %acc = scf.for %j = %c0 to %steps step %c1 iter_args(%s = %zero) -> ({f}) : i32 {{
        %k0 = arith.muli %j, %cn : i32
        %j1 = arith.addi %j, %c1 : i32
        %jf = arith.sitofp %j1 : i32 to f32
        %w = "tile.splat"(%jf) : (f32) -> {f}
        %kept = arith.mulf %t, %w : {f}
        %ri = "tile.iota"() : () -> tensor<{BM}xi32>
        %rr = "tile.reshape"(%ri) : (tensor<{BM}xi32>) -> tensor<{BM}x1xi32>
        %rows = "tile.broadcast"(%rr) : (tensor<{BM}x1xi32>) -> {I}
        %ci = "tile.iota"() : () -> tensor<{BN}xi32>
        %cr = "tile.reshape"(%ci) : (tensor<{BN}xi32>) -> tensor<1x{BN}xi32>
        %cols = "tile.broadcast"(%cr) : (tensor<1x{BN}xi32>) -> {I}
{mask}        %sel = arith.select %mask, %kept, %zero : {B}, {f}
        %n = arith.addf %s, %sel : {f}
        scf.yield %n : {f}
      }}
      "tile.store_own"(%z, %acc) : ({own}, {f}) -> ()
      gpu.return
    }}""")


# Causal attention's mask: key k0 + c not after query a + r, and inside the sequence of b keys.
CAUSAL = ("        %d = arith.subi %a, %k0 : i32\n" + _splat("ds", "d")
          + f"        %lim = arith.addi %rows, %ds : {I}\n"
          + f"        %seen = arith.cmpi sle, %cols, %lim : {I}\n"
          + "        %e = arith.subi %b, %k0 : i32\n" + _splat("es", "e")
          + f"        %inside = arith.cmpi slt, %cols, %es : {I}\n"
          + f"        %mask = arith.andi %seen, %inside : {B}\n")
# A mask from sums of tiles: (c + k0) - r <= a, and b >u (c + k0) - r (unsigned: false where the lag is negative).
TILE_SUMS = (_splat("ks", "k0") + _splat("as", "a") + _splat("bs", "b")
             + f"        %key = arith.addi %cols, %ks : {I}\n"
             + f"        %lag = arith.subi %key, %rows : {I}\n"
             + f"        %seen = arith.cmpi sle, %lag, %as : {I}\n"
             + f"        %inside = arith.cmpi ugt, %bs, %lag : {I}\n"
             + f"        %mask = arith.andi %seen, %inside : {B}\n")
# Either before key a or in a row from b on; and not (c * -2 == a - k0): or, xor with true, a negative factor.
LOGIC = ("        %d = arith.subi %a, %k0 : i32\n" + _splat("ds", "d") + _splat("bs", "b")
         + f"        %m2 = arith.constant dense<-2> : {I}\n"
         + f"        %true = arith.constant dense<true> : {B}\n"
         + f"        %early = arith.cmpi slt, %cols, %ds : {I}\n"
         + f"        %late = arith.cmpi sge, %rows, %bs : {I}\n"
         + f"        %either = arith.ori %early, %late : {B}\n"
         + f"        %twice = arith.muli %cols, %m2 : {I}\n"
         + f"        %hit = arith.cmpi eq, %twice, %ds : {I}\n"
         + f"        %miss = arith.xori %hit, %true : {B}\n"
         + f"        %mask = arith.andi %either, %miss : {B}\n")

Mask = Callable[[np.ndarray, np.ndarray, int, int, int], np.ndarray]
MASKS: dict[str, tuple[str, Mask]] = {
    "causal": (CAUSAL, lambda r, c, k0, a, b: (c <= r + np.int32(a - k0)) & (c < b - k0)),
    "tile_sums": (TILE_SUMS, lambda r, c, k0, a, b: (c + k0 - r <= a) & (np.uint32(b) > (c + k0 - r).astype(np.uint32))),
    "logic": (LOGIC, lambda r, c, k0, a, b: ((c < a - k0) | (r >= b)) & (c * -2 != a - k0)),
}


def _want(mask: Mask, x: np.ndarray, a: int, b: int, steps: int) -> np.ndarray:
    rows, cols = (v.astype(np.int32) for v in np.indices((BM, BN)))
    total = np.zeros((BM, BN), np.float32)
    for j in range(steps):
        total += np.where(mask(rows, cols, np.int32(j * BN), a, b), x * (j + 1), 0).astype(np.float32)
    return total


@pytest.mark.parametrize("name", sorted(MASKS))
@pytest.mark.parametrize("a,b,steps", [
    (20, 37, 6),   # the diagonal crosses steps 1 to 4 (BM != BN), the sequence ends inside step 4
    (3, 64, 8),    # the diagonal in the first step, the sequence a multiple of BN
    (40, 100, 4),  # every step all-true but for b's and a's edges further on
    (-5, 30, 3),   # rows before every key: no element of the causal mask is true
    (INT_MAX - 5, INT_MAX, 2),  # r + a wraps around from row 6 on: those elements are false
    (60, 30, 5),   # the sequence ends below the diagonal: steps 3 and 4 apply the causal mask's `inside` alone
])
def test_masks_are_applied_exactly_where_an_element_is_false(name, a, b, steps):
    body, mask = MASKS[name]
    x = np.random.default_rng(steps).integers(1, 5, (BM, BN)).astype(np.float32)
    z = np.full((BM, BN), np.nan, np.float32)
    run_tile(_kernel(body), "k", [1], [*view(z), *view(x), np.int32(a), np.int32(b), np.int32(steps)], warps=1)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(z, _want(mask, x, a, b, steps))


@pytest.mark.parametrize("name", sorted(MASKS))
def test_the_select_is_skipped_under_a_uniform_branch(name):
    """The select's mask is computed in the else branch only: the then branch yields the kept values as they are,
    and no compare of tiles is left before the branch (the scalar condition's compares are)."""
    text = lower(_kernel(MASKS[name][0]), "convert-tile-to-simt,canonicalize,cse")
    loop = text[text.index("scf.for"):]
    before, branch = loop.split(" = scf.if ", 1)
    then, rest = branch.split("} else {", 1)
    masked = rest[:rest.index("scf.yield")]
    assert "arith.select" not in then and "arith.cmpi" not in then
    assert masked.count("arith.select") == BM * BN // 32  # one per element of the thread
    assert "arith.select" not in before and "arith.cmpi" in before
    assert before.count("arith.cmpi") <= 8, before


def test_a_conjunct_all_true_in_a_step_is_dropped_there():
    """Causal attention's mask `seen & inside`: besides the step that skips it, one branch applies `seen` alone
    (blocks on the diagonal inside the sequence), one `inside` alone, and the last both; each select's mask is
    then one compare per element, or their and in the last branch."""
    text = lower(_kernel(CAUSAL), "convert-tile-to-simt,canonicalize,cse")
    loop = text[text.index("scf.for"):]
    loop = loop[:loop.index("\n      }\n")]  # the loop's body: its closing brace is at the kernel's indentation
    defined: dict[str, str] = {}  # names are reused across the branches' regions: read them in order
    masks = []
    for line in loop.splitlines():
        select = re.search(r"arith\.select (%\w+),", line)
        if select:
            masks.append(defined[select.group(1)])
        elif (definition := re.match(r"\s*(%\w+) = (arith\.\w+(?: \w+)?)", line)):
            defined[definition.group(1)] = definition.group(2)
    per_thread = BM * BN // 32
    assert sorted(masks) == sorted(["arith.cmpi sle"] * per_thread + ["arith.cmpi slt"] * per_thread
                                   + ["arith.andi"] * per_thread), masks


def test_an_unprovable_mask_is_applied_in_every_step(monkeypatch):
    """A mask built from a loaded tile has no scalar condition: the select stays as it was, with no branch."""
    monkeypatch.setattr(mask_elision, "emit", lambda *args: pytest.fail("a condition was emitted"))
    load = (f'        %pm = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> '
            f'!tile.partition<f32, array<i64: {BM}, {BN}>>\n'
            f'        %lm = "tile.load"(%pm, %c0, %c0) : (!tile.partition<f32, array<i64: {BM}, {BN}>>, i32, i32) -> '
            f'tensor<{BM}x{BN}xf32>\n'
            f'        %zm = arith.constant dense<2.0> : tensor<{BM}x{BN}xf32>\n'
            f'        %mask = arith.cmpf olt, %lm, %zm : tensor<{BM}x{BN}xf32>\n')
    text = lower(_kernel(load), "convert-tile-to-simt,canonicalize,cse")
    assert "arith.select" in text[text.index("scf.for"):]


def _attention(kernel: str, s: int, unsound: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, np.ndarray]:
    """The sm_90a attention kernel (f16, BM 128, BN 64, D 64) on the emulator, with the mask condition made
    always true where `unsound`; its output and the float64 reference."""
    if unsound:
        monkeypatch.setattr(mask_bounds.MaskBounds, "always", lambda self, old, truth: True)
    source = (EXAMPLES / "attention.rs").read_text()
    with context(), ir.Location.unknown():
        tile = compile_tile(source, "attention.rs", context(), {kernel: [["128", "64", "64"]]})
        module = ir.Module.parse(str(tile.module).replace("bf16", "f16"))
        build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a})").run(module.operation)
        found = []
        module.operation.walk(lambda op: (found.append(op) if "tile.warps" in op.attributes else None)
                              or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
        name = ir.StringAttr(found[0].attributes["sym_name"]).value
        shared = ir.IntegerAttr(found[0].attributes["tile.dynamic_shared"]).value
        # The consumer warps, and a producer warpgroup when the ring is specialized (the lowered contract's block).
        threads = list(ir.DenseI32ArrayAttr(ir.DictAttr(found[0].attributes["simt.contract"])["block"]))[0]
        program = emit_program(module)
    rng = np.random.default_rng(s)
    q, k, v = (rng.standard_normal((1, 1, s, 64)).astype(np.float16) for _ in range(3))
    out = np.full((1, s, 64), np.nan, np.float16)
    maps = [TensorMap(x, (1, 1, rows, 64), swizzle="128B") for x, rows in ((q, 128), (k, 64), (v, 64))]
    launch(program, name, (1, -(-s // 128), 1), (threads, 1, 1),
           [*view(out), *view(q), *view(k), *view(v), np.float32(np.log2(np.e) / 8), *maps], shared)
    want = reference(*(x.astype(np.float32) for x in (q, k, v)), kernel.endswith("causal"))
    return out.astype(np.float64).reshape(want.shape), want


@pytest.mark.parametrize("kernel", ["attention", "attention_causal"])
def test_attention_needs_the_masks_it_keeps(kernel, monkeypatch):
    """S = 200: the causal kernel's blocks cross the diagonal (BM = 128, BN = 64: two key blocks per query block),
    and the last key block is partial. With the real condition the output matches the reference; skipping the
    mask in every step (an unsound condition) moves it far off, so the kept masks are needed."""
    got, want = _attention(kernel, 200, False, monkeypatch)
    np.testing.assert_allclose(got, want, rtol=5e-3, atol=5e-3)
    wrong, _ = _attention(kernel, 200, True, monkeypatch)
    # Measured: 0.09 (the partial last block's 56 keys past the sequence) and 3.6 (causal).
    assert np.abs(wrong - want).max() > 10 * 5e-3
