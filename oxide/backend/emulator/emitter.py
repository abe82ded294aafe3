"""Writing one kernel as a Python function: SSA values become Python variables, structured control flow
becomes Python control flow over lane masks, and each op is written by its rule (rules.py).

The function is `def <kernel>(c, m0, *params)`: `c` is the batch of threads (oxide.runtime.emulator.threads),
`m0` the mask of all its lanes. Inside a region the current mask is another variable; a rule uses
`em.mask` for anything with a side effect. Values computed on masked-off lanes are garbage that no side
effect ever sees.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from mlir import ir
from mlir.dialects import func as func_d
from mlir.dialects import gpu, scf

from oxide.backend.emulator.rules import SIMT_RULES
from oxide.diagnostics import SourceLoc
from oxide.ir.diagnostics import source_loc
from oxide.ir.rules import LoweringError, OpSet, RuleSet
from oxide.ir.declare import int_value

_SCALARS = {"f32": "float32", "f64": "float64", "f16": "float16", "i1": "bool", "i8": "int8", "i16": "int16",
            "i32": "int32", "i64": "int64", "index": "int64",
            # fp8 data is only moved (pointers, TMA copies): its bytes; wgmma decodes them (wgmma_operands.py).
            "f8E4M3FN": "uint8", "f8E5M2": "uint8"}
TERMINATORS = OpSet(scf.YieldOp, scf.ConditionOp, gpu.ReturnOp, func_d.ReturnOp)


def numpy_dtype(type_: Any, where: Any = None) -> str:
    """The numpy dtype name that stores values of an MLIR scalar type (or a simt element type)."""
    name = _SCALARS.get(str(type_))
    if name is None:
        raise LoweringError(f"the emulator has no representation for values of type {type_}", where)
    return name


def np_type(type_: Any, where: Any = None) -> str:
    """Python source for the numpy scalar type of an MLIR type: `np.float32`, `np.bool_`."""
    name = numpy_dtype(type_, where)
    return "np.bool_" if name == "bool" else f"np.{name}"


def element_type(type_: Any) -> str:
    """The element type of a simt slice/disjoint/ptr/ref/shared type, as written in the type."""
    match = re.match(r"!simt\.\w+<([\w]+)", str(type_))
    if match is None:
        raise LoweringError(f"internal error: {type_} has no element type")
    return match.group(1)


class KernelEmitter:
    """The Python text of one kernel function under construction."""

    rules: RuleSet = SIMT_RULES  # a tile kernel's emitter (tile_emitter.py) writes its ops with the tile rules

    def __init__(self, locs: LocationTable, func: Any, scheduled: bool = False):
        self.locs = locs
        # The scheduled function is a generator: a blocking op's rule writes `yield` of what the warp waits on.
        self.scheduled = scheduled
        self.func = func
        self.lines: list[str] = []
        self.depth = 1
        self.names: dict[Any, str] = {}
        self.counter = 0
        self.mask = "m0"
        self.shared_count = 0
        # The static shared arrays as (bytes, alignment), in declaration order, and the largest alignment
        # asked of the dynamic shared memory: the layout of a block's shared window.
        self.shared_layout: list[tuple[int, int]] = []
        self.dynamic_align = 16

    # Names and text ------------------------------------------------------------------------------------
    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def bind(self, value: Any, name: str) -> str:
        self.names[value] = name
        return name

    def name(self, value: Any) -> str:
        try:
            return self.names[value]
        except KeyError:
            raise LoweringError(f"internal error: value {value.get_name()} used before it is defined") from None

    def args(self, op: Any) -> list[str]:
        return [self.name(v) for v in op.operands]

    def result(self, op: Any, index: int = 0) -> str:
        """A new variable for result `index` of `op`."""
        return self.bind(op.results[index], self.fresh())

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def loc(self, op: Any) -> int:
        """The id of the op's Rust source location in the program's location table."""
        return self.locs.id(source_loc(op.location))

    @contextlib.contextmanager
    def nested(self, mask: str) -> Iterator[None]:
        saved = self.mask
        self.mask = mask
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.mask = saved

    # Regions -------------------------------------------------------------------------------------------
    def block(self, block: Any, arg_names: list[str] | None = None) -> list[str]:
        """Write the ops of `block`; return the names of its terminator's operands."""
        for arg, name in zip(block.arguments, arg_names or []):
            self.bind(arg, name)
        start = len(self.lines)
        for op in block.operations:
            op = op.operation
            if op in TERMINATORS:
                if len(self.lines) == start:
                    self.line("pass")
                return self.args(op)
            self.rules.require(op)(self, op)
        if len(self.lines) == start:
            self.line("pass")
        return []

    def contract_int(self, key: str) -> int | None:
        """An integer fact of the kernel's launch contract, if it states one."""
        if "simt.contract" not in self.func.attributes:
            return None
        entries = ir.DictAttr(self.func.attributes["simt.contract"])
        return int_value(entries[key]) if key in entries else None


class LocationTable:
    """The Rust source locations a program names, each once, in first-use order."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self.ids: dict[str, int] = {}

    def id(self, loc: SourceLoc | None) -> int:
        text = str(loc) if loc is not None else "<unknown location>"
        if text not in self.ids:
            self.ids[text] = len(self.entries)
            self.entries.append(text)
        return self.ids[text]
