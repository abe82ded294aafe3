"""`oxide tune build` builds a tuning space the Python Autotuner then reuses (the same key), reports skipped
candidates with their reasons, and refuses malformed options; `oxide tune show` lists recorded winners."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.autotune import Autotuner, Config
from oxide.runtime.tune_progress import ProgressLine
from oxide.tools.oxide_cli import cli

SOURCE = Path(__file__).resolve().parents[3] / "examples" / "tile" / "autotune.rs"
BUILD = ["tune", "build", str(SOURCE), "--kernel", "rms_norm", "--fix", "N=128", "--arch", "sm_90"]


def test_build_writes_a_manifest_the_python_tuner_reuses(runner, monkeypatch):
    result = runner.invoke(cli, [*BUILD, "--space", "BLOCK_SIZE=32,64,256"])
    assert result.exit_code == 0, result.output
    assert "  BLOCK_SIZE=32: built\n  BLOCK_SIZE=64: built\n" in result.output
    assert "BLOCK_SIZE=256: skipped: " in result.output and "autotune.rs:30:51: error: `partition_mut" in result.output
    manifest = result.output.split("manifest: ")[1].strip()
    monkeypatch.setattr("oxide.autotune.build", lambda *a, **k: pytest.fail("compiled again"))
    tuner = Autotuner(SOURCE, "rms_norm", fixed={"N": 128}, chips=["sm_90"]).configs(
        Config.grid(BLOCK_SIZE=[32, 64, 256]))
    assert str(tuner.build(ProgressLine(io.StringIO())).directory / "manifest.json") == manifest


def test_show_lists_the_recorded_winner(runner):
    tuner = Autotuner(SOURCE, "rms_norm", fixed={"N": 128}, chips=["sm_90"]).configs(
        Config.grid(BLOCK_SIZE=[32, 64]))
    x, w = np.ones((2, 128), np.float32), np.ones(128, np.float32)

    def setup(run):
        out = np.zeros_like(x)
        return lambda: run.kernel(x, w, oxide.tile.partition(out, (1, 128)), 1e-6)

    tuner.run(setup, (x, w), target="cpu", timer=lambda run, launch: 9.0 - run.int("BLOCK_SIZE") / 32,
              progress=ProgressLine(io.StringIO()))
    result = runner.invoke(cli, ["tune", "show", "--kernel", "rms_norm"])
    assert result.exit_code == 0, result.output
    assert ("rms_norm on emulator for (float32[2,128], float32[128]): best BLOCK_SIZE=64 7 ms (2 timed, 0 skipped"
            in result.output)
    assert runner.invoke(cli, ["tune", "show", "--kernel", "other"]).output == "no tuning records of `other` in the cache\n"


def test_build_refuses_malformed_options_and_unknown_kernels(runner):
    malformed = runner.invoke(cli, [*BUILD, "--space", "BLOCK_SIZE"])
    assert malformed.exit_code == 2 and "--space takes NAME=V1,V2,..., got 'BLOCK_SIZE'" in malformed.output
    twice = runner.invoke(cli, [*BUILD, "--space", "BLOCK_SIZE=32", "--space", "BLOCK_SIZE=64"])
    assert "--space names `BLOCK_SIZE` twice" in twice.output
    unknown = runner.invoke(cli, ["tune", "build", str(SOURCE), "--kernel", "nope", "--space", "BLOCK_SIZE=32"])
    assert unknown.exit_code == 1 and "has no tile entry `nope` (entries: rms_norm)" in unknown.output


def test_build_fails_when_no_candidate_builds(runner):
    result = runner.invoke(cli, [*BUILD, "--space", "BLOCK_SIZE=512"])
    assert result.exit_code == 1 and "error: no candidate of `rms_norm` could be built" in result.output
