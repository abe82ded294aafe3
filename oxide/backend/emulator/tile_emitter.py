"""Writing one tile kernel as a Python function that runs ONE tile block: `def tile_<kernel>(b, *params)`,
where `b` is the block (oxide.runtime.emulator.tile.Block: kernel name, block id, grid) and the parameters
are the whole tensors (numpy arrays), raw pointers and scalars. Tiles are numpy arrays, scalars numpy
scalars; control flow is plain Python (a tile block's scalars are uniform, so nothing is masked).

The ops are written by the tile rules (tile_ops.py, tile_arith.py, tile_control.py). Every value whose
element type is bf16 is rounded to bf16 where it is produced (`TileEmitter.assign`): numpy has no bf16.
"""

from __future__ import annotations

import re
from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import KernelEmitter, LocationTable
from oxide.backend.emulator.rules import TILE_RULES
from oxide.dialects.tile.dialect import DIALECT as TILE_DIALECT
from oxide.dialects.tile.kernel import DEFAULT_WARPS
from oxide.ir.rules import LoweringError
from oxide.ir.declare import int_value

# Tile element type -> numpy type the emulator computes in (bf16 as float32, rounded; see runtime tile.py).
COMPUTE_TYPES = {"f32": "np.float32", "f64": "np.float64", "f16": "np.float16", "bf16": "np.float32",
                 "i1": "np.bool_", "i8": "np.int8", "i16": "np.int16", "i32": "np.int32", "i64": "np.int64",
                 "index": "np.int64", "f8E4M3FN": "np.float32", "f8E5M2": "np.float32"}
_ROUNDED = {"bf16": "_t.bf16({})", "f8E4M3FN": "_t.fp8({}, 'f8E4M3FN')", "f8E5M2": "_t.fp8({}, 'f8E5M2')"}
_TILE_PARAM = re.compile(r"!tile\.(view_mut|view|mapped_mut|ptr)<")
_PARAM_KINDS = {"view_mut": "tile_out", "view": "tile_in", "mapped_mut": "tile_mapped", "ptr": "ptr"}


def is_tile_kernel(func: Any) -> bool:
    """Whether a gpu.func kernel is a tile kernel: a tile-typed parameter, or tile ops in its body. (Not
    `tile.warps` alone: a kernel lowered to simt keeps that attribute and is a SIMT kernel.)"""
    entry = func.regions[0].blocks[0]
    if any(_TILE_PARAM.match(str(arg.type)) for arg in entry.arguments):
        return True
    prefix = TILE_DIALECT.name + "."
    return any(op.operation.name.startswith(prefix) for op in entry.operations)


def elem_name(type_: Any) -> str:
    """The element type of a tile (ranked tensor) as written (`f32`), or a scalar type's own name."""
    if isinstance(type_, ir.RankedTensorType):
        return str(type_.element_type)
    match = re.match(r"!tile\.\w+<(\w+)", str(type_))
    return match.group(1) if match else str(type_)


def shape_of(type_: Any) -> tuple[int, ...]:
    """The static shape of a tile type, or the shape parameter of a tile view/partition type."""
    if isinstance(type_, ir.RankedTensorType):
        return tuple(type_.shape)
    match = re.search(r"array<i64(?::\s*([-\d,\s]*))?>", str(type_))
    if match is None:
        raise LoweringError(f"internal error: {type_} has no shape")
    return tuple(int(d) for d in (match.group(1) or "").split(",") if d.strip())


def compute_type(type_: Any, where: Any = None) -> str:
    """Python source for the numpy type that holds values of a tile's (or scalar's) element type."""
    elem = elem_name(type_)
    if elem not in COMPUTE_TYPES:
        raise LoweringError(f"the emulator has no representation for tile elements of type {elem}", where)
    return COMPUTE_TYPES[elem]


class TileEmitter(KernelEmitter):
    """The Python text of one tile-block function under construction."""

    rules = TILE_RULES

    def assign(self, op: Any, expression: str, index: int = 0) -> str:
        """Bind result `index` of `op` to `expression`, rounded to bf16 or fp8 when that is its element type
        (numpy has neither: they compute as float32)."""
        name = self.result(op, index)
        type_ = op.results[index].type
        elem = elem_name(type_) if isinstance(type_, ir.RankedTensorType) else str(type_)
        if elem in _ROUNDED:
            expression = _ROUNDED[elem].format(expression)
        self.line(f"{name} = {expression}")
        return name


def _parameter(type_: Any, func: Any) -> tuple[str, str, tuple[int, ...]]:
    """(kind, element type, shape) of a tile kernel parameter."""
    match = _TILE_PARAM.match(str(type_))
    if match is None:
        compute_type(type_, func)
        return "scalar", str(type_), ()
    kind = _PARAM_KINDS[match.group(1)]
    elem = elem_name(type_)
    compute_type(elem, func)
    return kind, elem, () if kind == "ptr" else shape_of(type_)


def tile_kernel_function(func: Any, locs: LocationTable, functions: set[str]) -> tuple[str, str, dict[str, Any]]:
    """The name and text of one tile kernel's block function (a name not in `functions`, then added to it), and
    the rest of its KERNELS entry."""
    name = "tile_" + re.sub(r"\W", "_", ir.StringAttr(func.attributes["sym_name"]).value)  # symbols may hold `.`
    if name in functions:
        name += f"_{len(functions)}"
    functions.add(name)
    em = TileEmitter(locs, func)
    entry = func.regions[0].blocks[0]
    if len(func.regions[0].blocks) != 1:
        raise LoweringError("the emulator executes structured control flow only (one block per kernel)", func)
    params = [em.bind(arg, f"p{k}") for k, arg in enumerate(entry.arguments)]
    kinds = [_parameter(arg.type, func) for arg in entry.arguments]
    warps = int_value(func.attributes["tile.warps"]) if "tile.warps" in func.attributes else DEFAULT_WARPS
    em.block(entry)
    text = f"def {name}(b{''.join(', ' + p for p in params)}):\n" + "\n".join(em.lines) + "\n"
    return name, text, {"params": kinds, "tile": {"warps": warps}}
