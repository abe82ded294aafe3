"""The sm_90a path of flash attention (docs/tile-attention.md, "The sm_90a path"): the K/V loop's two products of
examples/tile/attention.rs run on wgmma from 128-byte-swizzled shared memory, the softmax on the wgmma
accumulator layout, q, k and v arriving by TMA through an mbarrier ring (or, where a load does not qualify,
staged by the threads); other chips and tiles the path does not take keep mma.sync.

The simt emulator has no bf16 scalars, so the lowered kernels run here with f16 inputs (the example's tile IR
with bf16 replaced by f16: the same path, the same wgmma shapes) against the float64 reference, with a partial
query block and a partial last key block; ptxas assembles the bf16 instances.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

from oxide.backend import compile_to_ptx
from oxide.backend.emulator import emit_program
from oxide.backend.ptx import tile_kernel_pipelines
from oxide.frontends.tile.compile import compile_tile
from oxide.ir.declare import int_value
from oxide.passes.conversion.tile_to_simt.attention_wgmma import swizzled_offset
from oxide.passes.conversion.tile_to_simt.driver import lower_kernel
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime import TensorMap
from oxide.runtime.emulator import launch
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, view

EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"
sys.path.insert(0, str(EXAMPLES))

from attention import reference  # noqa: E402


# The example with the key block's row index computed (`j + 0`): the loads of k no longer qualify for TMA, so
# the loop stages its operands through the threads' registers.
STAGED_K = ("pk.load([b, h, j, 0i32])", "pk.load([b, h, j + 0i32, 0i32])")
# The example with the output read at the top of the loop, before the scores product: the pipelined loop would
# run the previous step's values MMAs into it only after that read, so the loop stays unpipelined.
LOOP_TOP = "        for j in 0i32..ceil_div(n, BN) {\n"
EARLY_READ = (LOOP_TOP, LOOP_TOP + "            acc = acc + constant(0.0f32, const_shape![BM, D]);\n")


def _tile_module(kernel: str, bm: int, bn: int, d: int, elem: str = "bf16", staged: bool = False,
                 early: bool = False) -> ir.Module:
    source = (EXAMPLES / "attention.rs").read_text()
    if staged:
        source = source.replace(*STAGED_K)
    if early:
        assert EARLY_READ[0] in source
        source = source.replace(*EARLY_READ)
    result = compile_tile(source, "attention.rs", context(), {kernel: [[str(bm), str(bn), str(d)]]})
    return ir.Module.parse(str(result.module).replace("bf16", elem))


def _lowered(kernel: str, bm: int, bn: int, d: int, chip: str, elem: str = "bf16",
             staged: bool = False, stages: int | None = None, early: bool = False,
             specialize: bool = True, pingpong: bool = True) -> ir.Module:
    """The kernel lowered to simt; `stages` bounds its TMA ring (two keep the loop unpipelined); without
    `specialize`, consumer thread 0 fills the ring (no producer warpgroup); without `pingpong` the consumer
    warpgroups issue their MMAs independently."""
    module = _tile_module(kernel, bm, bn, d, elem, staged, early)
    knobs = GemmKnobs(specialize="on" if specialize else "off", pingpong="on" if pingpong else "off")
    if stages is None and specialize and pingpong:
        # Specialization forced on: by default (auto) D = BN = 64 keeps two blocks per SM instead.
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip} specialize=on}})").run(module.operation)
    else:
        lower_kernel(_kernel(module), Target(chip), knobs, attention_stages=stages)
    return module


@pytest.mark.parametrize("bn,d,specialized", [(64, 64, False), (128, 64, True), (64, 128, True), (128, 128, True)])
def test_the_default_specializes_where_one_block_fills_the_sm(bn, d, specialized):
    """`specialize=auto`: a producer warpgroup (and its setmaxnreg, which leaves one block per SM) except where two
    unspecialized blocks fit an SM (BN + D <= 128), which measured faster on an H200."""
    with context(), ir.Location.unknown():
        module = _tile_module("attention", 128, bn, d, "bf16", False, False)
        build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a})").run(module.operation)
        assert _block(_kernel(module)) == 256 + 128 * specialized
        assert ("simt.setmaxnreg" in str(module)) == specialized


def _stages(bn: int, d: int) -> int:
    """The TMA ring's stages of a pipelined instance: four where they fit beside q in sm_90's 227 KiB, else
    three."""
    return min(4, (227 * 1024 - 128 * d * 2) // (2 * bn * d * 2))


def _kernel(module: ir.Module) -> ir.Operation:
    found = []
    module.operation.walk(lambda op: (found.append(op) if "tile.warps" in op.attributes else None)
                          or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
    return found[0]


def _block(entry: ir.Operation) -> int:
    """The lowered entry's block size (its contract): the consumer warps, and a producer warpgroup when
    specialized."""
    return list(ir.DenseI32ArrayAttr(ir.DictAttr(entry.attributes["simt.contract"])["block"]))[0]


# How the loop's operands arrive: by TMA into a ring of 3 or 4 stages, the loop software-pipelined (the default
# for every bf16 instance), by TMA through two stages (the unpipelined loop: a bound on the stages, or the
# output read before the scores), or staged by the threads. The TMA copies are a producer warpgroup's, or with
# the `specialize` knob off consumer thread 0's (THREAD0 pipelined, THREAD0_RING through two stages). The
# pipelined loop's consumer warpgroups take turns issuing their MMAs, or with the `pingpong` knob off not (SOLO).
PIPELINED, RING, EARLY, STAGED, THREAD0, THREAD0_RING = "pipelined", "ring", "early", "staged", "thread0", "thread0-ring"
SOLO = "solo"


@pytest.mark.parametrize("kernel,bm,bn,d,s,mode", [
    ("attention", 128, 64, 64, 150, PIPELINED),          # a partial query block, a partial key block, 3 steps
    ("attention", 128, 64, 64, 300, PIPELINED),          # 5 steps through a ring of 4 stages: refills, phases flip
    ("attention_causal", 128, 64, 64, 600, PIPELINED),   # up to 10 steps: the producer waits on empty's both parities
    ("attention", 128, 64, 64, 64, PIPELINED),           # one key block: the first step's values are the last's
    ("attention", 128, 64, 128, 128, PIPELINED),         # two key blocks, D = 128 (two swizzle boxes per row)
    ("attention_causal", 128, 64, 128, 150, PIPELINED),  # the causal mask
    ("attention", 128, 128, 128, 300, PIPELINED),        # BN = 128, three stages
    ("attention", 128, 128, 64, 100, PIPELINED),         # BN = 128: one partial key block
    ("attention_causal", 128, 128, 128, 300, PIPELINED),  # the mask built in the scores' layout
    ("attention_causal", 128, 64, 64, 200, PIPELINED),   # causal, S not a multiple of BN: the diagonal block partial
    ("attention_causal", 128, 128, 64, 190, PIPELINED),  # causal BN = 128: the last query block's keys partial
    ("attention", 128, 64, 64, 300, RING),               # the unpipelined loop: 5 steps through 2 stages
    ("attention_causal", 128, 128, 128, 300, RING),
    ("attention", 128, 64, 64, 300, EARLY),
    ("attention", 128, 64, 64, 150, STAGED),             # k staged by the threads (its load does not qualify)
    ("attention_causal", 128, 128, 128, 300, STAGED),
    ("attention", 128, 64, 64, 300, THREAD0),            # no producer warpgroup: thread 0 refills the ring
    ("attention_causal", 128, 128, 64, 190, THREAD0),
    ("attention", 128, 64, 64, 300, THREAD0_RING),
    ("attention_causal", 128, 64, 64, 200, SOLO),
])
def test_emulated_wgmma_attention_matches_the_reference(kernel, bm, bn, d, s, mode):
    staged, pipelined, producer = mode == STAGED, mode in (PIPELINED, THREAD0, SOLO), not mode.startswith(THREAD0)
    with context(), ir.Location.unknown():
        module = _lowered(kernel, bm, bn, d, "sm_90a", "f16", staged, 2 if mode.endswith(RING) else None,
                          mode == EARLY, producer, mode != SOLO)
        text = str(module)
        entry = _kernel(module)
        name = ir.StringAttr(entry.attributes["sym_name"]).value
        # The thread-staged D = 64 instance's arrays fit the static 48 KiB: no dynamic shared memory.
        dynamic = "tile.dynamic_shared" in entry.attributes
        shared = int_value(entry.attributes["tile.dynamic_shared"]) if dynamic else 0
        program = emit_program(module)
    # p is the values MMAs' A in registers: no buffer, no stores of it, no block barrier before its MMAs. The
    # pipelined loop issues the last step's values MMAs after the loop: BN / 16 more in the text.
    assert text.count("simt.wgmma_mma_async_reg_a") == (1 + pipelined) * bn // 16
    assert text.count("simt.wgmma_mma_async") == (d + (1 + pipelined) * bn) // 16 and "mma.sync" not in text
    assert ("simt.tma_load" in text) != staged
    if not staged:  # q's boxes, the first stages' k and v, the refill's (or the producer's q, k, v): per 64 columns
        thread0 = 1 + 2 * (_stages(bn, d) if pipelined else 2) + 2
        assert text.count("simt.tma_load") == d // 64 * (3 if producer else thread0)
    # The producer warpgroup: 128 more threads, which give their registers to the consumers.
    assert _block(entry) == 256 + 128 * (producer and not staged)
    assert ("simt.setmaxnreg" in text) == (producer and not staged)
    # Ping-pong: warpgroup 1's first arrival, then per step each warpgroup's wait and arrival.
    turns = mode == PIPELINED
    assert text.count("simt.named_barrier_arrive") == 3 * turns and text.count("simt.named_barrier\"") == 2 * turns
    # Pipelined: the scores are waited for with the previous step's values MMAs still in flight.
    assert ("pending = 1" in text) == pipelined
    rng = np.random.default_rng(bn + d)
    heads = 2  # the maps' outer dimensions: a block reads only its own (batch, head), zeros past its keys
    q, k, v = (rng.standard_normal((1, heads, s, d)).astype(np.float16) for _ in range(3))
    out = np.full((heads, s, d), np.nan, np.float16)  # every row is written
    maps = [] if staged else [TensorMap(x, (1, 1, rows, 64), swizzle="128B") for x, rows in ((q, bm), (k, bn), (v, bn))]
    launch(program, name, (heads, -(-s // bm), 1), (_block(entry), 1, 1),
           [*view(out), *view(q), *view(k), *view(v), np.float32(np.log2(np.e) / np.sqrt(d)), *maps], shared)
    want = reference(*(x.astype(np.float32) for x in (q, k, v)), kernel.endswith("causal"))
    # f16 rounds p and the output with 2^-11 relative error; the f32 softmax and accumulators do the rest.
    np.testing.assert_allclose(out.astype(np.float64).reshape(want.shape), want, rtol=5e-3, atol=5e-3)


@pytest.mark.parametrize("chip,bm,wgmma", [
    ("sm_90a", 128, True),
    ("sm_90", 128, False),   # no wgmma without the a suffix
    ("sm_80", 128, False),
    ("sm_90a", 64, False),   # one 64-row block cannot be split over the kernel's two warpgroups
])
def test_which_instances_take_wgmma(chip, bm, wgmma):
    with context(), ir.Location.unknown():
        text = str(_lowered("attention", bm, 64, 64, chip))
    assert ("simt.wgmma_mma_async" in text) == wgmma


def test_the_swizzled_offsets_are_a_permutation_of_the_buffer():
    """Every (row, col) of a 128 x 128 buffer has its own offset, the 16-byte chunks of a row are permuted
    within it, and the first 8 rows of 128 bytes hold the first swizzle atom."""
    rows, cols = 128, 128
    offsets = {swizzled_offset(r, c, rows) for r in range(rows) for c in range(cols)}
    assert offsets == set(range(rows * cols))
    assert {swizzled_offset(3, c, rows) // 8 for c in range(0, 64, 8)} == set(range(24, 32))
    assert swizzled_offset(1, 0, rows) == 64 + 8  # row 1's first chunk is its second slot


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("kernel", ["attention", "attention_causal"])
@pytest.mark.parametrize("bn,d", [(64, 64), (64, 128), (128, 64), (128, 128)])
def test_ptxas_assembles_the_wgmma_attention(kernel, bn, d, tmp_path):
    with context(), ir.Location.unknown():
        ptx = "\n".join(compile_to_ptx(_tile_module(kernel, 128, bn, d), Target("sm_90a")).values())
    path = tmp_path / "attention.ptx"
    path.write_text(ptx)
    run = subprocess.run(["ptxas", "-v", "-arch=sm_90a", "-o", str(tmp_path / "a.cubin"), str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # No serialized wgmma: no use of an accumulator before its wait (C7514), no accumulator defined by another
    # instruction inside a pipeline stage (C7515), no register of A written after the fence before its MMA (C7520).
    assert "wgmma.mma_async" in ptx and not any(w in run.stderr for w in ("C7514", "C7515", "C7520")), run.stderr
    # Every instance is software-pipelined: the scores are waited for with the values MMAs in flight.
    assert "wgmma.wait_group.sync.aligned \t1;" in ptx
    assert "cp.async.bulk.tensor.4d" in ptx and "mbarrier.try_wait.parity" in ptx
    # Every instance fits in registers: the masks are built in the scores' layout (no conversion through shared
    # memory), which is what made the causal and BN = 128 instances spill.
    assert " 0 bytes spill stores" in run.stderr, run.stderr


def test_the_artifact_records_the_attention_maps():
    """The runtime encodes one map per q, k, v from the kernel's 4-D tensors: a box of one swizzle row of BM (q)
    or BN (k, v) rows of one (batch, head)."""
    with context(), ir.Location.unknown():
        pipelines = tile_kernel_pipelines(_tile_module("attention", 128, 64, 128), Target("sm_90a"))
        assert tile_kernel_pipelines(_tile_module("attention", 128, 64, 128), Target("sm_90")) == {}
        assert tile_kernel_pipelines(_tile_module("attention", 128, 64, 128, staged=True), Target("sm_90a")) == {}
    assert pipelines == {"attention_128_64_128": {"tma": [
        {"param": 1, "box": [1, 1, 128, 64], "swizzle": "128B"},
        {"param": 2, "box": [1, 1, 64, 64], "swizzle": "128B"},
        {"param": 3, "box": [1, 1, 64, 64], "swizzle": "128B"}], "threads": 384}}
