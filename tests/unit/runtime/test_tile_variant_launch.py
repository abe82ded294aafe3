"""How the tile runtime launches a straight-line row kernel's variants (docs/tile-lowering.md, "Straight-line
kernels"): both entries carry no warps of their own and launch with the kernel's block. Checked on the softmax
artifact fixture, given the variants a build with knob guarded records, with a recording executor (no GPU),
through the same path a GPU launch takes."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

from oxide.runtime.artifact import Artifact
from oxide.runtime.tile_kernel import TileKernel
from tests.unit.runtime.test_tile_straight_variants import straight_variants

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tile" / "softmax.oxide.json"


class _Executor:
    """Records the functions it makes and the launches it is asked for."""

    target, chip, device = "gpu", "sm_90", None

    def __init__(self) -> None:
        self.limits = types.SimpleNamespace(multiprocessors=132, max_grid=(2**31 - 1, 65535, 65535))
        self.launches: list[tuple[Any, Any]] = []

    def function(self, spec: Any) -> Any:
        return types.SimpleNamespace(spec=spec, allow_dynamic_shared=lambda n: None)

    def launch(self, fn: Any, config: Any, abi: list[Any], stream: Any) -> None:
        self.launches.append((fn.spec, config))


@pytest.mark.parametrize("entry,threads", [("softmax_4_1024", 128), ("softmax_1_4096", 256)])
def test_both_entries_launch_with_the_kernels_block(entry, threads):
    spec = next(k for k in Artifact.load(FIXTURE).kernels if k.entry == entry)
    spec.tile["variants"] = straight_variants(entry, 2)  # type: ignore[index]
    assert spec.tile["warps"] * 32 == threads
    executor = _Executor()
    kernel = TileKernel(spec, executor)
    for variant in spec.tile["variants"]:
        assert "warps" not in variant
        kernel._enqueue(types.SimpleNamespace(variant=variant, grid=(7, 1, 1), abi=[], staged=[]), None)
        launched, config = executor.launches[-1]
        assert launched.entry == variant["entry"] and tuple(config.block) == (threads, 1, 1)
