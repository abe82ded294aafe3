"""Thread-block clusters in the persistent sm_90a GEMM (knob `cluster`, wgmma_cluster.py; docs/tile-hopper.md,
"Clusters"): the lowered kernels run on the simt emulator (clusters, multicast TMA, remote mbarrier arrives)
against numpy, including output grids that are not a whole number of cluster tiles (blocks with no tile of their
own keep the shared pipeline going) and K loops longer than the ring; the launch facts the artifact records; the
multicast and remote-arrive PTX, which ptxas assembles; and the refusal of bad knob values."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.diagnostics import OxideError
from oxide.ir.declare import int_value
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.artifact import Artifact
from oxide.runtime.emulator import launch
from oxide.runtime.tensor_map import TensorMap
from oxide.runtime.tile_kernel import persistent_grid
from oxide.tools.oxide_cli import cli
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, strided_view, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm

RNG = np.random.default_rng(19)
GEMM = Path(__file__).parents[5] / "examples" / "tile" / "gemm.rs"


def _lowered(bm: int, bn: int, warps: int, knobs: str) -> ir.Module:
    module = ir.Module.parse(module_text(gemm(bm, bn, 64, warps, "f16", "f32")))
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip=sm_90a {knobs}}})").run(module.operation)
    return module


def _kernel(module: ir.Module) -> ir.Operation:
    return module.body.operations[0].regions[0].blocks[0].operations[0]


def _boxes(module: ir.Module) -> list[tuple[int, int]]:
    """The boxes of the kernel's tensor maps (A, B, and the output's), as tile.tma records them."""
    text = str(_kernel(module).attributes["tile.tma"])
    return [tuple(int(x) for x in part.split(">")[0].split(",")) for part in text.split("array<i64: ")[1:]]


@pytest.mark.parametrize("cluster", ["2x1", "1x2", "2x2"])
@pytest.mark.parametrize("m,n,k,tile,blocks", [
    (128, 128, 64, (64, 64), 1),     # one cluster tile, one K step
    (200, 136, 392, (64, 64), 2),    # edges on every dimension; cluster tiles past the grid; ring refills
    (72, 72, 200, (64, 64), 1),      # a 2 x 2 tile grid: with 2x2, one cluster; with 2x1, two cluster tiles
    (136, 200, 136, (128, 128), 2),  # two B boxes per stage; the second cluster tile is half outside
])
def test_emulated_cluster_gemm_matches_numpy(cluster, m, n, k, tile, blocks):
    bm, bn = tile
    cm, cn = GemmKnobs(cluster=cluster).cluster_shape
    with context(), ir.Location.unknown():
        module = _lowered(bm, bn, 4, f"cluster={cluster}")
        ring = int_value(_kernel(module).attributes["tile.dynamic_shared"])
        boxes = _boxes(module)
        program = emit_program(module)
    # Each block of a tile row loads 1 / CN of the A box, each of a tile column 1 / CM of every B box.
    assert boxes[:2] == [(bm // cn, 64), (64 // cm, 64)]
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)
    maps = [TensorMap(a, boxes[0], swizzle="128B"), TensorMap(b, boxes[1], swizzle="128B"),
            TensorMap(c, boxes[2], swizzle="128B")]
    size = cm * cn
    launch(program, "gemm", (blocks * size, 1, 1), (256, 1, 1), [*view(c), *view(a), *view(b), *maps], ring,
           cluster=(size, 1, 1))
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=1e-4, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("cluster", ["2x1", "1x2"])
def test_the_kmajor_entry_with_a_cluster_matches_numpy(cluster):
    # B = bt.T, read K-major: each block of a tile column loads 1 / CM of the [BN, 64] box's rows (N).
    cm, cn = GemmKnobs(cluster=cluster).cluster_shape
    m, n, k = 136, 200, 200
    with context(), ir.Location.unknown():
        module = _lowered(64, 64, 4, f"cluster={cluster}")
        kernels = module.body.operations[0].regions[0].blocks[0].operations
        kmajor = next(f for f in kernels if ir.StringAttr(f.attributes["sym_name"]).value == "gemm$kmajor_b")
        text = str(kmajor.attributes["tile.tma"])
        program = emit_program(module)
    assert f"box = array<i64: {64 // cm}, 64>, param = 2 : i64" in text
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)
    bt = np.ascontiguousarray(b.T)
    maps = [TensorMap(a, (64 // cn, 64), swizzle="128B"), TensorMap(bt, (64 // cm, 64), swizzle="128B"),
            TensorMap(c, (64, 32), swizzle="128B")]
    b_view = strided_view(bt.reshape(-1), (k, n), (1, k))
    launch(program, "gemm$kmajor_b", (4, 1, 1), (256, 1, 1), [*view(c), *view(a), *b_view, *maps], 4 * 16384,
           cluster=(2, 1, 1))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4 * np.sqrt(k))


def _compile(knobs):
    return oxide.compile(GEMM.read_text(), "gemm.rs", chip="sm_90a", instances={"gemm": [["128", "256", "64"]]},
                         knobs=knobs)


@pytest.fixture(scope="module")
def clustered():
    return _compile({"cluster": "2x1"})


def test_the_artifact_records_the_cluster_launch(clustered):
    tile = clustered.tile["gemm_128_256_64"]
    assert tile["cluster"] == [2, 1, 1] and tile["cluster_tiles"] == [2, 1] and tile["persistent"]
    # B's boxes are half as deep (two blocks share them); A's are whole (no other block of the cluster has its rows).
    assert [m["box"] for m in tile["tma"]][:2] == [[128, 64], [32, 64]]
    entries = {v["entry"]: v for v in tile["variants"]}
    assert entries["gemm_128_256_64$kmajor_b"]["cluster"] == [2, 1, 1]
    assert "cluster" not in _compile(None).tile["gemm_128_256_64"]


def test_a_kernel_that_is_not_persistent_takes_no_cluster():
    # Clusters are the persistent kernel's tile walk; a knob the chosen path has no use for is ignored.
    tile = _compile({"cluster": "2x1", "persistent": "off"}).tile["gemm_128_256_64"]
    assert "cluster" not in tile and [m["box"] for m in tile["tma"]][:2] == [[128, 64], [64, 64]]


def test_the_clustered_ptx_multicasts_and_arrives_remotely(clustered):
    ptx = clustered.ptx["sm_90a"].split(".entry gemm_128_256_64$kmajor_b")[0]
    assert "fence.mbarrier_init.release.cluster;" in ptx and ptx.count("barrier.cluster.wait") == 2
    # 2x1: B (four boxes) is multicast to both blocks, A is not shared.
    assert ptx.count("complete_tx::bytes.multicast::cluster") == 4
    # The consumers' remote releases are CTA-scoped (no cluster-wide fence per arrival: wgmma_cluster.release).
    assert ptx.count("mbarrier.arrive.shared::cluster.b64") >= 2 and "arrive.release.cluster" not in ptx
    assert "mapa.shared::cluster" in ptx


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_ptxas_assembles_the_clustered_kernels(clustered, tmp_path):
    path = tmp_path / "gemm.ptx"
    path.write_text(clustered.ptx["sm_90a"])
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "gemm.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


_PAIR = {"cluster": [2, 1, 1], "cluster_tiles": [2, 1]}
_QUAD = {"cluster": [4, 1, 1], "cluster_tiles": [2, 2]}


@pytest.mark.parametrize("tiles,cluster,sms,grid", [
    ((32, 16, 1), {}, 132, (132, 1, 1)),     # no cluster: one block per SM
    ((32, 16, 1), _PAIR, 132, (132, 1, 1)),  # 66 clusters of 2
    ((3, 1, 1), _PAIR, 132, (4, 1, 1)),      # 2 cluster tiles, the second half past M
    ((1, 1, 1), _QUAD, 132, (4, 1, 1)),      # a whole cluster for one tile
    ((8, 8, 1), _QUAD, 30, (28, 1, 1)),      # 16 cluster tiles, 7 clusters fit in 30 SMs
    ((8, 8, 1), _QUAD, 2, (4, 1, 1)),        # fewer SMs than a cluster: still one cluster
])
def test_the_persistent_grid_is_a_whole_number_of_clusters(tiles, cluster, sms, grid):
    assert persistent_grid(tiles, {"persistent": True, **cluster}, sms) == grid


@pytest.mark.parametrize("value", ["3x1", "2", "4x4", "2x1x1", "two"])
def test_a_cluster_no_launch_can_take_is_refused(value):
    with pytest.raises(OxideError, match=f"knob cluster must be MxN .*got '{value}'"):
        GemmKnobs.of({"cluster": value})


def test_the_pass_and_the_cli_refuse_a_bad_cluster(tmp_path):
    with context():
        build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a cluster=1x2})")
        with pytest.raises(OxideError, match=r"<pass-pipeline>:1:\d+: error: knob cluster must be MxN"):
            build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a cluster=3x3})")
    runner = CliRunner()
    result = runner.invoke(cli, ["build", str(GEMM), "--chip", "sm_90a", "--instantiate", "gemm=64,64,64",
                                 "--knob", "cluster=5x1", "-o", str(tmp_path)])
    assert result.exit_code != 0 and "knob cluster must be MxN" in result.output
    result = runner.invoke(cli, ["build", str(GEMM), "--chip", "sm_90a", "--instantiate", "gemm=64,64,64",
                                 "--knob", "cluster=1x2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    built = Artifact.load(next(tmp_path.glob("*.oxide.json")))
    assert built.meta["options"]["knobs"] == {"cluster": "1x2"} and built.kernels[0].tile["cluster"] == [2, 1, 1]


@pytest.mark.parametrize("resident,grid", [(60, (120, 1, 1)), (66, (132, 1, 1)), (80, (132, 1, 1)), (0, (2, 1, 1))])
def test_the_persistent_grid_holds_no_more_clusters_than_run_at_once(resident, grid):
    # The device may run fewer clusters at once than SMs / cluster size (GPC sizes): a persistent grid larger
    # than that would leave clusters waiting for a second wave.
    assert persistent_grid((32, 16, 1), {"persistent": True, **_PAIR}, 132, resident) == grid
