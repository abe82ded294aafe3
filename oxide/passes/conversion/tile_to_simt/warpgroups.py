"""How an sm_90a plan's consumer warps split the tile's rows: whole warpgroups (4 warps), each computing the
same number of 64-row blocks (one wgmma's M). The GEMM plan (wgmma_plan.GemmPlan) and the attention plan
(attention_pattern.AttentionPlan) share it."""

from __future__ import annotations

# Rows of one wgmma (its M): every warpgroup computes whole 64-row blocks.
WGMMA_M = 64


class WarpgroupRows:
    """The warpgroups of a plan with `warps` consumer warps over `bm` rows, and the 64-row blocks each computes.
    A mixin of frozen dataclasses that declare `bm` and `warps`."""

    bm: int
    warps: int

    @property
    def warpgroups(self) -> int:
        return self.warps // 4

    @property
    def blocks_per_group(self) -> int:
        """64-row blocks of the BM rows each warpgroup computes."""
        return self.bm // WGMMA_M // self.warpgroups
