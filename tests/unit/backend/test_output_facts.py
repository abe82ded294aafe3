"""Which outputs a tile kernel stores whole (backend/output_facts.py): a `tile.store_own` in the entry block
counts, one under a branch does not; the artifacts record the fact for the runtime's staged outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mlir import ir

from oxide.backend.output_facts import tile_kernel_whole_stores
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OWN, SRC = "!tile.view_mut<f32, array<i64: 16>>", "!tile.view<f32, array<i64: -1>>"


def _kernel(store: str) -> str:
    """`k(z, x, flag)`: loads x's tile and stores it into z's as `store` says."""
    return module_text(f"""    gpu.func @k(%z: {OWN}, %x: {SRC}, %flag: i1) kernel attributes {{tile.warps = 1 : i32}} {{
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : ({SRC}) -> !tile.partition<f32, array<i64: 16>>
      %t = "tile.load"(%p, %c0) : (!tile.partition<f32, array<i64: 16>>, i32) -> tensor<16xf32>
{store}
      gpu.return
    }}""")


TOP = '      "tile.store_own"(%z, %t) : ({OWN}, tensor<16xf32>) -> ()'.replace("{OWN}", OWN)
BRANCH = "      scf.if %flag {\n  " + TOP + "\n      }"


@pytest.mark.parametrize("store, whole", [(TOP, [0]), (BRANCH, []), ("", [])])
def test_only_a_store_in_the_entry_block_counts(store, whole):
    with context(), ir.Location.unknown():
        assert tile_kernel_whole_stores(ir.Module.parse(_kernel(store))) == {"k": whole}


def test_the_gemm_artifacts_record_their_output_stored_whole():
    kernels = json.loads((FIXTURES / "tile_sm90a" / "gemm_precisions.oxide.json").read_text())["kernels"]
    assert all(k["tile"]["stores_whole"] == [0] for k in kernels)
