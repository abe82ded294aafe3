"""Lowering hand-written tile kernels with convert-tile-to-simt and running the result on the simt emulator.

`run_tile` launches one block per tile of the output with 32 * warps threads, as the tile runtime does; view
arguments go as the contract's ABI (array, extents, strides in elements).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.dialects import tile as T
from oxide.dialects.context import make_context
from oxide.ir.declare import int_value
from oxide.passes.conversion.tile_to_simt.guarded import GENERAL_SUFFIX
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.tile_marshal import vector_ready

KERNEL_HEADER = "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
KERNEL_FOOTER = "\n  }\n}\n"


@lru_cache(maxsize=1)
def context() -> Any:
    return make_context()


def module_text(kernels: str) -> str:
    """A tile module holding the given gpu.func texts."""
    return KERNEL_HEADER + kernels + KERNEL_FOOTER


def lower(text: str, pipeline: str = "convert-tile-to-simt") -> str:
    """The module after `pipeline`, as text."""
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        build_pass_manager(f"builtin.module({pipeline})").run(module.operation)
        return str(module)


@lru_cache(maxsize=64)
def _compiled(text: str,
              pipeline: str = "convert-tile-to-simt") -> tuple[str, dict[str, int], dict[str, list[int | None]],
                                                               dict[str, int]]:
    """The emulator program of the lowered tile module, the dynamic shared memory (`tile.dynamic_shared`: a
    pipelined GEMM loop's ring) each lowered kernel launches with, per straight-line kernel (guarded.py)
    the rank of each of its parameters (None: not a view), to choose its variant as the runtime does, and
    the threads each lowered kernel's contract requires."""
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        ranks: dict[str, list[int | None]] = {}
        rings: dict[str, int] = {}
        straight: set[str] = set()
        blocks: dict[str, int] = {}

        def params(op: ir.Operation) -> ir.WalkResult:
            if op.name == "gpu.func":
                ranks[ir.StringAttr(op.attributes["sym_name"]).value] = [
                    len(T.shape_of(a.type)) if T.ViewType.isinstance(a.type) or T.ViewMutType.isinstance(a.type)
                    else None for a in op.regions[0].blocks[0].arguments]
            return ir.WalkResult.ADVANCE

        module.operation.walk(params, ir.WalkOrder.PRE_ORDER)
        build_pass_manager(f"builtin.module({pipeline})").run(module.operation)

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = ir.StringAttr(op.attributes["sym_name"]).value if "sym_name" in op.attributes else ""
            if "tile.dynamic_shared" in op.attributes:
                rings[name] = int_value(op.attributes["tile.dynamic_shared"])
            if "tile.variants" in op.attributes and "vector = true" in str(op.attributes["tile.variants"]):
                straight.add(name)
            if "simt.contract" in op.attributes:
                block = re.search(r"block = array<i32: (\d+)", str(op.attributes["simt.contract"]))
                if block:
                    blocks[name] = int(block.group(1))
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        return emit_program(module), rings, {name: ranks[name] for name in straight}, blocks


def _entry_for(slots: list[int | None], args: Sequence[Any]) -> bool:
    """Whether every view in the flat ABI `args` (per parameter: a view's array, extents, strides) is
    vector-ready (the runtime's test), so that a straight-line kernel's own entry runs."""
    position = 0
    for rank in slots:
        if rank is None:
            position += 1
            continue
        array, shape = args[position], [int(d) for d in args[position + 1:position + 1 + rank]]
        strides = [int(s) for s in args[position + 1 + rank:position + 1 + 2 * rank]]
        position += 1 + 2 * rank
        if not vector_ready(array.__array_interface__["data"][0], tuple(shape), tuple(strides), array.dtype):
            return False
    return True


def program(text: str) -> str:
    """The emulator program of the lowered tile module."""
    return _compiled(text)[0]


def view(array: np.ndarray) -> list[Any]:
    """The ABI arguments of a view of the C-contiguous `array`: its flat data (written in place), extents, strides."""
    assert array.flags.c_contiguous
    strides = [s // array.itemsize for s in array.strides]
    return [array.reshape(-1), *[np.int64(d) for d in array.shape], *[np.int64(s) for s in strides]]


def strided_view(base: np.ndarray, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> list[Any]:
    """The ABI arguments of a strided view into the flat array `base` (which the kernel may write)."""
    return [base[offset:], *[np.int64(d) for d in shape], *[np.int64(s) for s in strides]]


def run_tile(text: str, entry: str, grid: Sequence[int], args: Sequence[Any], warps: int = 4,
             pipeline: str = "convert-tile-to-simt") -> None:
    """Lower `text` (by `pipeline`) and run kernel `entry` over `grid` tile blocks (args already in the ABI,
    flattened); a straight-line kernel on views that are not all vector-ready runs its default lowering, as on
    the GPU."""
    compiled, rings, straight, blocks = _compiled(text, pipeline)
    if entry in straight and not _entry_for(straight[entry], args):
        entry += GENERAL_SUFFIX
    # The emulator runs whatever block it is given; a kernel lowered for another block would compute garbage.
    assert blocks.get(entry, 32 * warps) == 32 * warps, \
        f"{entry} was lowered for {blocks[entry]} threads, the test launches {32 * warps}"
    launch(compiled, entry, tuple(grid) + (1,) * (3 - len(grid)), (32 * warps, 1, 1), list(args), rings.get(entry, 0))


def tensor(shape: Sequence[int], elem: str = "f32") -> str:
    """`tensor<AxBxE>`."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def shape_text(shape: Sequence[int]) -> str:
    """`array<i64: ...>`."""
    return "array<i64: " + ", ".join(str(d) for d in shape) + ">"


def unary_kernel(src_shape: Sequence[int], dst_shape: Sequence[int], body: str, elem: str = "f32",
                 dst_elem: str | None = None, warps: int = 4, name: str = "k") -> str:
    """A kernel `name(z: view_mut<dst_shape>, x: view)` that loads x's tile `%a` at block (0..), runs `body`
    (MLIR ops ending in a value `%r` of the output's tile type) and stores `%r` as its own tile."""
    dst_elem = dst_elem or elem
    rank = len(src_shape)
    dyn = shape_text([-1] * rank)
    view, part = f"!tile.view<{elem}, {dyn}>", f"!tile.partition<{elem}, {shape_text(src_shape)}>"
    own = f"!tile.view_mut<{dst_elem}, {shape_text(dst_shape)}>"
    zeros = "\n".join(f'      %i{d} = arith.constant 0 : i32' for d in range(rank))
    indices = ", ".join(f"%i{d}" for d in range(rank))
    return module_text(f"""    gpu.func @{name}(%z: {own}, %x: {view}) kernel attributes {{tile.warps = {warps} : i32}} {{
{zeros}
      %p = "tile.make_partition"(%x) : ({view}) -> {part}
      %a = "tile.load"(%p, {indices}) : ({part}{', i32' * rank}) -> {tensor(src_shape, elem)}
{body}
      "tile.store_own"(%z, %r) : ({own}, {tensor(dst_shape, dst_elem)}) -> ()
      gpu.return
    }}""")


def run_unary(text: str, x: np.ndarray, dst_shape: Sequence[int], dst_dtype: Any = None, warps: int = 4) -> np.ndarray:
    """Run a unary_kernel over one block; the output array."""
    z = np.zeros(tuple(dst_shape) if dst_shape else (), dtype=dst_dtype or x.dtype)
    out = z.reshape(-1) if z.ndim == 0 else z
    run_tile(text, "k", [1], [*view(out), *view(np.ascontiguousarray(x))], warps)
    return z
