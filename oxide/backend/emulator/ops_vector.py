"""Emulator rules for short vectors (upstream `vector.extract` / `vector.from_elements`, as the tile lowering's
vector loads and stores use them). A vector<NxT> value is one row of N per lane."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import vector as vector_d

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.ir.rules import LoweringError


@rule(vector_d.ExtractOp)
def emit_vector_extract(em: KernelEmitter, op: Any) -> None:
    (vector,) = em.args(op)
    position = list(ir.DenseI64ArrayAttr(op.attributes["static_position"]))
    if len(position) != 1 or position[0] < 0:
        raise LoweringError("the emulator extracts one element at a constant position from a 1-D vector", op)
    em.line(f"{em.result(op)} = {vector}[:, {position[0]}]")


@rule(vector_d.FromElementsOp)
def emit_vector_from_elements(em: KernelEmitter, op: Any) -> None:
    elements = ", ".join(f"c.broadcast({e})" for e in em.args(op))
    em.line(f"{em.result(op)} = np.stack([{elements}], axis=1)")
