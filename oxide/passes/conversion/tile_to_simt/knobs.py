"""The knobs of the tile GEMM lowering (and `guarded`, of the other tile kernels): compile options that change
how a GEMM K loop (or a kernel's memory access) runs, never what it computes. Each knob's default (0 or "auto") lets the lowering's model of the machine choose (wgmma_plan.py);
a tuner searches them by compiling the same source with other values (`oxide build --knob stages=3`,
`oxide.compile(..., knobs={"stages": 3})`, `convert-tile-to-simt{chip=sm_90a stages=3}`).

A knob the chosen path has no use for is ignored (the mma.sync path has no producer warpgroup); a value no
path can take is an error when the options are made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from oxide.diagnostics import OxideError

SWITCHES = ("auto", "on", "off")
EPILOGUES = ("auto", "tma", "registers")
MAX_STAGES = 8
# Blocks of a cluster along M and along N: each divides its operand boxes among the blocks that share them, so
# a side of 1, 2 or 4 keeps every slice a whole number of 8-row swizzle atoms (boxes are at least 64 rows); 8
# blocks is the portable cluster size.
CLUSTER_SIDES = (1, 2, 4)
MAX_CLUSTER_BLOCKS = 8


@dataclass(frozen=True)
class GemmKnobs:
    """`warps`: consumer warps (0: the kernel's hint, raised when the accumulator would not fit in registers),
    and for a kernel without `mma` the warps its tiles spread over (0: the hint raised by register_budget.py);
    `stages`: the K pipeline's depth (0: as many as shared memory holds, at most 4); `specialize`: a producer
    warpgroup that issues the copies while the consumer warpgroups multiply; `persistent`: one block per
    SM that walks the output tiles; `group_m`: how many tile rows the persistent order walks before the next
    column group (L2 reuse of B); `epilogue`: how the result is stored, "tma" (through shared memory with TMA
    stores, where the kernel's epilogue is a plain store of the accumulator) or "registers" (each thread stores
    its own elements); `cluster`: `MxN`, a thread-block cluster of M blocks along the output's rows and N along
    its columns in the persistent kernel: blocks of the same tile column share the B tile and blocks of the same
    tile row the A tile, each loading a slice of it by TMA multicast to all of them. The flash-attention loop
    (docs/tile-attention.md) reads `specialize` (its producer warpgroup) and `pingpong`: its two consumer
    warpgroups take turns issuing their MMAs, so that one's softmax overlaps the other's MMAs. Two knobs are
    for the kernels without a GEMM: `guarded`, their loads and stores as predicated instructions in a
    straight-line kernel ("auto": those that reduce or scan; guarded.py) instead of per-tile fast paths and edge
    branches; `warp_rows`, whether a warp may own whole rows of the row tiles (layouts.blocked's `warps_outer`;
    "auto": where every row tile has a row per warp and no row vector is loaded, register_budget.py; "on": the
    first condition only; "off": the warps split each row, reduced through shared memory)."""

    warps: int = 0
    stages: int = 0
    specialize: str = "auto"
    persistent: str = "auto"
    group_m: int = 8
    epilogue: str = "auto"
    cluster: str = "1x1"
    pingpong: str = "auto"
    guarded: str = "off"
    warp_rows: str = "auto"

    def __post_init__(self) -> None:
        if self.warps and (self.warps % 4 or not 4 <= self.warps <= 16):
            raise OxideError(f"knob warps must be 4, 8, 12 or 16 (whole warpgroups), got {self.warps}")
        if not 0 <= self.stages <= MAX_STAGES or self.stages == 1:
            raise OxideError(f"knob stages must be 2 to {MAX_STAGES} (or 0: chosen by the compiler), got {self.stages}")
        for name in ("specialize", "persistent", "pingpong", "guarded", "warp_rows"):
            if getattr(self, name) not in SWITCHES:
                raise OxideError(f"knob {name} must be one of {', '.join(SWITCHES)}, got '{getattr(self, name)}'")
        if self.epilogue not in EPILOGUES:
            raise OxideError(f"knob epilogue must be one of {', '.join(EPILOGUES)}, got '{self.epilogue}'")
        if not 1 <= self.group_m <= 64:
            raise OxideError(f"knob group_m must be 1 to 64, got {self.group_m}")
        _cluster_shape(self.cluster)

    @property
    def cluster_shape(self) -> tuple[int, int]:
        """The cluster knob as (blocks along M, blocks along N)."""
        return _cluster_shape(self.cluster)

    @staticmethod
    def of(values: "GemmKnobs | Mapping[str, Any] | None") -> "GemmKnobs":
        """Knobs from a mapping of knob names to values (strings are converted), checked."""
        if values is None:
            return GemmKnobs()
        if isinstance(values, GemmKnobs):
            return values
        known = {f.name: f.type for f in fields(GemmKnobs)}
        converted: dict[str, Any] = {}
        for name, value in values.items():
            if name not in known:
                raise OxideError(f"unknown knob '{name}' (knobs: {', '.join(known)})")
            if known[name] == "int":
                try:
                    converted[name] = int(value)
                except (TypeError, ValueError):
                    raise OxideError(f"knob {name} takes an integer, got '{value}'") from None
            else:
                converted[name] = {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else str(value)
        return GemmKnobs(**converted)

    def as_dict(self) -> dict[str, Any]:
        """The knobs that differ from the defaults (what a cache key and an artifact record)."""
        default = GemmKnobs()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)}


def _cluster_shape(text: str) -> tuple[int, int]:
    """`MxN` as (M, N), checked: each side 1, 2 or 4, at most MAX_CLUSTER_BLOCKS blocks."""
    parts = text.split("x")
    sides = ", ".join(map(str, CLUSTER_SIDES))
    if len(parts) != 2 or not all(p in map(str, CLUSTER_SIDES) for p in parts) \
            or int(parts[0]) * int(parts[1]) > MAX_CLUSTER_BLOCKS:
        raise OxideError(f"knob cluster must be MxN (blocks along the output's rows x columns, each {sides}, at most "
                         f"{MAX_CLUSTER_BLOCKS} blocks: 1x1, 2x1, 1x2, ...), got '{text}'")
    return int(parts[0]), int(parts[1])
