"""Autotuning: the compile step builds a space's candidates into the cache with a manifest (pruned and
uncompilable configs skipped with their reasons), the timing step picks the fastest with an injected timer,
refuses candidates the runtime refuses or whose output differs, records the winner per problem and device,
and a later call reuses the record without timing."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.autotune import PRUNED, Autotuner, Config
from oxide.diagnostics import OxideError
from oxide.runtime.errors import LaunchContractError
from oxide.runtime.tune import SKIPPED, TIMED, problem_key, record_path, tune
from oxide.runtime.tune_manifest import Manifest, TuneError
from oxide.runtime.tune_progress import ProgressLine

SOURCE = Path(__file__).resolve().parents[3] / "examples" / "tile" / "autotune.rs"
N = 256
FAKE_MS = {32: 3.0, 64: 1.0, 128: 2.0}


def _tuner() -> Autotuner:
    """BLOCK_SIZE 32, 64, 128 build; 512 fails to compile (it does not divide the row); 1024 is pruned."""
    return (Autotuner(SOURCE, "rms_norm", fixed={"N": N}, chips=["sm_90"])
            .configs(Config.grid(BLOCK_SIZE=[32, 64, 128, 512, 1024]))
            .prune(lambda c: c.int("BLOCK_SIZE") != 1024))


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return _tuner().build(ProgressLine(io.StringIO()))


def _inputs(rows: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(rows)
    return rng.standard_normal((rows, N), dtype=np.float32), rng.standard_normal(N, dtype=np.float32)


def _setup(x: np.ndarray, w: np.ndarray, refuse: int | None = None, wrong: int | None = None):
    """The example's setup on the emulator; `refuse`/`wrong` make one block size refused at launch or wrong."""
    def setup(run):
        out = np.zeros_like(x)
        if run.int("BLOCK_SIZE") == refuse:
            raise LaunchContractError("rms_norm", "grid", "(4, 1, 1)", "(5, 1, 1)")

        def launch():
            run.kernel(x, w, oxide.tile.partition(out, (1, N)), 1e-6)
            return out * 2 if run.int("BLOCK_SIZE") == wrong else out

        return launch

    return setup


def _fake_timer(calls: list[str]):
    def timer(run, launch):
        calls.append(run.id)
        return FAKE_MS[run.int("BLOCK_SIZE")]

    return timer


def _tune(manifest: Manifest, rows: int, calls: list[str], **options):
    x, w = _inputs(rows)
    return tune(manifest, _setup(x, w, **options), (x, w, 1e-6), target="cpu", timer=_fake_timer(calls),
                progress=ProgressLine(io.StringIO()))


def test_the_manifest_lists_built_pruned_and_uncompilable_candidates(manifest):
    by_id = {c.id: c for c in Manifest.load(manifest.directory).candidates}
    assert list(by_id) == [f"BLOCK_SIZE={b}" for b in (32, 64, 128, 512, 1024)]
    assert all(by_id[f"BLOCK_SIZE={b}"].artifact.is_file() for b in (32, 64, 128))
    assert by_id["BLOCK_SIZE=1024"].skipped == PRUNED and by_id["BLOCK_SIZE=1024"].artifact is None
    reason = by_id["BLOCK_SIZE=512"].skipped
    assert reason.startswith(f"{SOURCE}:30:51: error: `partition_mut([1, 512])` must split")


def test_a_second_build_reuses_the_manifest_without_compiling(manifest, monkeypatch):
    monkeypatch.setattr("oxide.autotune.build", lambda *a, **k: pytest.fail("compiled again"))
    assert _tuner().build(ProgressLine(io.StringIO())).space == manifest.space


def test_the_fastest_candidate_wins_and_is_recorded(manifest):
    calls: list[str] = []
    result = _tune(manifest, 3, calls)
    assert calls == ["BLOCK_SIZE=32", "BLOCK_SIZE=64", "BLOCK_SIZE=128"]
    assert result.best.id == "BLOCK_SIZE=64" and result.best.ms == 1.0 and not result.from_record
    assert [t.state for t in result.trials] == [TIMED, TIMED, TIMED, SKIPPED, SKIPPED]
    record = json.loads(record_path(manifest, result.problem, "emulator").read_text())
    assert record["best"] == "BLOCK_SIZE=64" and record["device"] == "emulator"
    assert record["problem"] == ["float32[3,256]", "float32[256]", "float"]


def test_a_later_call_reuses_the_record_without_timing(manifest):
    _tune(manifest, 5, [])
    calls: list[str] = []
    again = _tune(manifest, 5, calls)
    assert calls == [] and again.from_record and again.best.id == "BLOCK_SIZE=64"
    assert _tuner().best(problem=(*_inputs(5), 1e-6), target="cpu").best.id == "BLOCK_SIZE=64"
    assert _tuner().best(problem=(*_inputs(6), 1e-6), target="cpu") is None  # another shape: not tuned yet


def test_retune_times_again(manifest):
    _tune(manifest, 7, [])
    calls: list[str] = []
    x, w = _inputs(7)
    tune(manifest, _setup(x, w), (x, w, 1e-6), target="cpu", timer=_fake_timer(calls), retune=True,
         progress=ProgressLine(io.StringIO()))
    assert len(calls) == 3


def test_a_candidate_refused_at_launch_is_skipped_with_its_reason(manifest):
    calls: list[str] = []
    result = _tune(manifest, 9, calls, refuse=64)
    refused = result.trials[1]
    assert refused.state == SKIPPED and "launch contract `grid`" in refused.reason
    assert result.best.id == "BLOCK_SIZE=128" and "BLOCK_SIZE=64" not in calls


def test_a_candidate_with_another_result_is_skipped(manifest):
    result = _tune(manifest, 11, [], wrong=64)
    assert result.trials[1].state == SKIPPED
    assert "output differs from candidate BLOCK_SIZE=32's" in result.trials[1].reason
    assert result.best.id == "BLOCK_SIZE=128"


def test_the_winner_loads_and_computes_rmsnorm(manifest):
    x, w = _inputs(4)
    result = tune(manifest, _setup(x, w), (x, w, 1e-6), target="cpu", progress=ProgressLine(io.StringIO()))
    y = np.zeros_like(x)
    result.load(target="cpu").rms_norm(x, w, oxide.tile.partition(y, (1, N)), 1e-6)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(y, x64 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + 1e-6) * w, rtol=1e-4)


def test_no_runnable_candidate_gives_no_best_and_no_record(manifest):
    x, w = _inputs(13)

    def refuse_all(run):
        raise LaunchContractError("rms_norm", "grid", 1, 2)

    result = tune(manifest, refuse_all, (x, w), target="cpu", progress=ProgressLine(io.StringIO()))
    assert result.best is None and all(t.state == SKIPPED for t in result.trials)
    assert not record_path(manifest, result.problem, "emulator").exists()
    with pytest.raises(TuneError, match="found no candidate that runs"):
        result.load(target="cpu")


def test_progress_is_one_line_in_place_on_a_terminal_and_plain_lines_otherwise():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    plain, terminal = io.StringIO(), Terminal()
    for out in (plain, terminal):
        line = ProgressLine(out)
        line.update("tuning k [1/2] a ...")
        line.finish("tuned k")
    assert plain.getvalue() == "tuning k [1/2] a ...\ntuned k\n"
    assert terminal.getvalue() == "\rtuning k [1/2] a ...\x1b[K\rtuned k\x1b[K\n"


def test_problem_key_names_shapes_and_dtypes():
    y = np.zeros((4, 8), np.float16)
    assert problem_key([y, oxide.tile.partition(y, (1, 8)), 1.5, np.float32(2), "note"]) == [
        "float16[4,8]", "float16[4,8]", "float", "float32[]", "note"]


@pytest.mark.parametrize("configs, fixed, message", [
    ([{"BLOCK_SIZ": 64}], {"N": N}, "config parameter `BLOCK_SIZ` is neither a generic parameter of `rms_norm` "
                                    r"\(N, BLOCK_SIZE\) nor a lowering knob"),
    ([{"BLOCK_SIZE": 64}], {}, "generic parameter `N` of `rms_norm` has no value"),
    ([], {"N": N}, "the search space is empty"),
])
def test_mistakes_in_the_tuning_call_stop_the_build(configs, fixed, message):
    tuner = Autotuner(SOURCE, "rms_norm", fixed=fixed, chips=["sm_90"]).configs(configs)
    with pytest.raises(OxideError, match=message):
        tuner.build(ProgressLine(io.StringIO()))


def test_a_bad_knob_value_skips_only_its_candidate():
    tuner = Autotuner(SOURCE, "rms_norm", fixed={"N": N}, chips=["sm_90"]).configs(
        [Config(BLOCK_SIZE=64, stages=1), Config(BLOCK_SIZE=64, stages=3)])
    bad, good = tuner.build(ProgressLine(io.StringIO())).candidates
    assert "knob stages must be 2 to 8" in bad.skipped and good.artifact is not None


def test_building_without_the_compiler_says_to_carry_the_cache(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlir.ir", None)  # `import mlir.ir` raises ImportError
    tuner = Autotuner(SOURCE, "rms_norm", fixed={"N": N}, chips=["sm_90"]).configs([Config(BLOCK_SIZE=16)])
    with pytest.raises(OxideError, match="no manifest of this space.*carry OXIDE_CACHE_DIR"):
        tuner.build(ProgressLine(io.StringIO()))


def test_a_damaged_manifest_is_a_tune_error(tmp_path):
    (tmp_path / "manifest.json").write_text('{"format": 1, "kernel": "k"}')
    with pytest.raises(TuneError, match="incomplete tuning manifest"):
        Manifest.load(tmp_path)


def test_the_example_tunes_and_passes_on_the_emulator(tmp_path):
    env = dict(os.environ, OXIDE_CACHE_DIR=str(tmp_path), OXIDE_DEVICE="cpu", OXIDE_TARGET="sm_90")
    example = SOURCE.with_suffix(".py")
    first = subprocess.run([sys.executable, str(example)], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "BLOCK_SIZE=4096: skipped: pruned" in first.stdout and "PASSED" in first.stdout
    assert "tuned rms_norm on emulator: 4 timed, 1 skipped" in first.stderr
    second = subprocess.run([sys.executable, str(example)], env=env, capture_output=True, text=True, timeout=300)
    assert "(recorded earlier: nothing timed)" in second.stdout and "tuning" not in second.stderr
