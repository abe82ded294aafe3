"""The tile GEMM lowering's knobs (tile_to_simt/knobs.py): checked where they are made, accepted by the pass,
the API and `oxide build`, and changing how the GEMM runs, never what it computes (the emulator tests of
test_wgmma_gemm.py run the same GEMM under each pipeline shape)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import oxide
import oxide.tile
from oxide.diagnostics import OxideError
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.pipeline import build_pass_manager
from oxide.tools.oxide_cli import cli
from tests.unit.passes.conversion.tile_to_simt.harness import context

GEMM = Path(__file__).parents[5] / "examples" / "tile" / "gemm.rs"


@pytest.mark.parametrize("values,message", [
    ({"warps": 6}, "knob warps must be 4, 8, 12 or 16"),
    ({"stages": 1}, "knob stages must be 2 to 8"),
    ({"specialize": "maybe"}, "knob specialize must be one of auto, on, off"),
    ({"group_m": 0}, "knob group_m must be 1 to 64"),
    ({"stages": "three"}, "knob stages takes an integer, got 'three'"),
    ({"tile": 128}, "unknown knob 'tile' (knobs: warps, stages, specialize, persistent, group_m, epilogue, cluster, pingpong, guarded, warp_rows)"),
])
def test_a_knob_no_path_can_take_is_an_error(values, message):
    with pytest.raises(OxideError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GemmKnobs.of(values)


def test_knobs_from_python_values():
    assert GemmKnobs.of({"stages": "3", "persistent": False}) == GemmKnobs(stages=3, persistent="off")
    assert GemmKnobs.of({"stages": 3}).as_dict() == {"stages": 3}


def test_the_pass_takes_the_knobs_as_options_and_locates_a_bad_one():
    with context():
        build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a stages=3 specialize=off})")
        with pytest.raises(OxideError, match=r"<pass-pipeline>:1:56: error: knob stages must be 2 to 8"):
            build_pass_manager("builtin.module(convert-tile-to-simt{chip=sm_90a stages=12})")


def _compile(knobs):
    return oxide.compile(GEMM.read_text(), "gemm.rs", chip="sm_90a", instances={"gemm": [["128", "128", "64"]]},
                         knobs=knobs)


def test_the_knobs_change_the_launch_the_artifact_records():
    default = _compile(None).tile["gemm_128_128_64"]
    assert default["threads"] == 4 * 32 + 128 and default["persistent"] and default["dynamic_shared"] == 4 * 32768
    tuned = _compile({"stages": 3, "specialize": "off"}).tile["gemm_128_128_64"]
    assert tuned["threads"] == 128 and not tuned["persistent"] and tuned["dynamic_shared"] == 3 * 32768
    wide = _compile({"warps": 8, "persistent": "off"})
    assert wide.tile["gemm_128_128_64"]["threads"] == 8 * 32 + 128 and ".reqntid 384" in wide.ptx["sm_90a"]


def test_oxide_build_takes_knobs_and_refuses_bad_ones(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["build", str(GEMM), "--chip", "sm_90a", "--instantiate", "gemm=64,64,64",
                                 "--knob", "stages=9", "-o", str(tmp_path)])
    assert result.exit_code != 0 and "knob stages must be 2 to 8 (or 0: chosen by the compiler), got 9" in result.output
    result = runner.invoke(cli, ["build", str(GEMM), "--chip", "sm_90a", "--instantiate", "gemm=64,64,64",
                                 "--knob", "stages=2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    built = oxide.runtime.artifact.Artifact.load(next(tmp_path.glob("*.oxide.json")))
    assert built.kernels[0].tile["dynamic_shared"] == 2 * 16384 and built.meta["options"]["knobs"] == {"stages": 2}  # normalised


def test_knobs_are_recorded_normalised_so_equal_values_share_a_build(tmp_path, monkeypatch):
    monkeypatch.setenv("OXIDE_CACHE_DIR", str(tmp_path / "cache"))
    source = Path(__file__).resolve().parents[5] / "examples" / "tile" / "vecadd.rs"
    instances = {"add": [["[1024]"]]}
    first = oxide.build(source, chips=["sm_80"], instances=instances, knobs={"stages": "2", "group_m": 8})
    again = oxide.build(source, chips=["sm_80"], instances=instances, knobs={"stages": 2})
    assert again == first  # group_m 8 is the default; "2" is 2
    assert oxide.build(source, chips=["sm_80"], instances=instances, knobs={"stages": 3}) != first


def test_the_warps_knob_sets_a_row_kernels_warps_and_its_launch(tmp_path):
    source = (Path(__file__).parents[5] / "examples" / "tile" / "softmax.rs").read_text()
    instances = {"softmax": [["4", "1024"]]}
    default = oxide.compile(source, "softmax.rs", "sm_90", instances)
    tuned = oxide.compile(source, "softmax.rs", "sm_90", instances, knobs={"warps": 8})
    assert default.tile["softmax_4_1024"]["warps"] == 4 and ".reqntid 128, 1, 1" in default.ptx["sm_90"]
    assert tuned.tile["softmax_4_1024"]["warps"] == 8 and ".reqntid 256, 1, 1" in tuned.ptx["sm_90"]
    x = np.random.default_rng(0).standard_normal((8, 1000), dtype=np.float32)
    y = np.zeros((8, 1024), np.float32)
    oxide.load(tuned.artifact(source).write(tmp_path)).softmax(oxide.tile.partition(y, (4, 1024)), x)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(y[:, :1000], e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
