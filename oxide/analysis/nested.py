"""Every op nested in an op's regions, in program order (pre-order): the one walk the analyses and the
transform passes share."""

from __future__ import annotations

from typing import Any, Iterator


def nested_ops(op: Any) -> Iterator[Any]:
    """The ops inside `op` (not `op` itself), each before the ops nested in it."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner
                yield from nested_ops(inner)
