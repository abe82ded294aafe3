"""Values a lowering carries through one lowered `scf.for` beside the loop's own: the lowered loop gets extra
iteration arguments that the tile IR does not have (a software-pipelined attention loop carries a step's
probabilities into the next step, whose values MMAs read them: attention_pipeline.py).

control.lower_for appends `types` to the loop's carried values, hands the body's block arguments for them to
`inner` before each emission of the body and yields `yielded` (set by the body's lowering) after the loop's own
values. Once the body is settled, `enter` is given the loop's own initial values (flat, with their layouts)
right before the loop, where it may emit code, and returns them (maybe replaced) followed by the extra values'
initial values; `close` is given the loop's own results and the extra ones after it, where it may emit code,
and returns the loop's own results (maybe replaced).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlir import ir


@dataclass
class LoopCarry:
    """The extra carried values of the tile IR loop `loop` (module docstring)."""

    loop: Any
    types: list[ir.Type]
    inner: list[ir.Value] = field(default_factory=list)
    yielded: list[ir.Value] = field(default_factory=list)
    enter: Callable[[list[ir.Value], list[Any]], list[ir.Value]] = lambda flat, layouts: flat
    close: Callable[[list[Any], list[ir.Value]], list[Any]] = lambda results, extra: results
