"""Walk operations without letting a Python exception cross into C++.

`Operation.walk` calls back from C++; an exception raised in the callback cannot unwind through MLIR's
walker, so the process aborts (or the bindings wrap it in a RuntimeError that loses its type). `walk`
catches it in the callback, stops the walk, and re-raises it in Python once the walker has returned, so
callers see the original exception (a VerifyError stays a VerifyError, a bug in oxide stays a bug).
"""

from __future__ import annotations

from typing import Callable

from mlir import ir


def walk(root: ir.Operation, visit: Callable[[ir.Operation], ir.WalkResult],
         order: ir.WalkOrder = ir.WalkOrder.POST_ORDER) -> None:
    """`root.walk(visit, order)`, re-raising in Python any exception `visit` raises."""
    raised: list[BaseException] = []

    def guarded(op: ir.Operation) -> ir.WalkResult:
        try:
            return visit(op)
        except BaseException as exc:  # noqa: B036  (re-raised below, outside the C++ walker)
            raised.append(exc)
            return ir.WalkResult.INTERRUPT

    root.walk(guarded, order)
    if raised:
        raise raised[0]
