"""The timing step of autotuning: run every built candidate of a tuning manifest, check that each computes
what the first valid one computes, time them, and remember the fastest for this problem on this device.

    result = oxide.runtime.tune.tune(manifest, setup, problem=(x, w))
    result.best.config                  # {"BLOCK_SIZE": 128}
    mod = result.load()                 # the winner's module, to launch

`setup(run)` gets a CandidateRun (its config, its loaded module and kernel, the stream to launch on) and
returns a launch closure; each call of the closure launches once, stream-ordered on `run.stream` (the
emulator has no stream: launches there are synchronous), and returns the output to check (or None). The first
call is the gate: a candidate the runtime refuses (a launch-contract error, an argument it cannot take, a
CUDA error) or whose output differs is skipped with the reason, and the rest go on.

The winner is recorded in the cache beside the manifest, keyed by the problem (each argument's shape and
dtype) and the device (its name and compute capability, or "emulator"); a later call with the same key
returns it without timing anything (`retune=True` times again). This module imports nothing of the compiler:
the manifest and the artifacts are built where the compiler is (oxide.autotune) and carried here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from oxide.runtime.cache import cache_dir
from oxide.runtime.driver import Device
from oxide.runtime.errors import KernelFaultError, OxideRuntimeError
from oxide.runtime.module import Module, load, resolve_target
from oxide.runtime.tune_manifest import MANIFEST, Candidate, Manifest, TuneError, read_json, write_json
from oxide.runtime.tune_progress import ProgressLine
from oxide.runtime.tune_timing import EventTimer, Launch, Timer, WallTimer

TIMED, SKIPPED = "timed", "skipped"


@dataclass
class CandidateRun:
    """What `setup` gets for one candidate: its id and config, its module and kernel (loaded for the target),
    and the stream its launches go on (None on the emulator)."""

    id: str
    config: dict[str, Any]
    module: Module
    kernel: Any
    stream: Any

    def int(self, name: str) -> int:
        """An integer parameter of the config (cutile's `config.int("BLOCK_SIZE")`)."""
        return int(self.config[name])


@dataclass
class Trial:
    """One candidate's outcome: timed (`ms` per launch) or skipped (`reason`)."""

    id: str
    config: dict[str, Any]
    state: str
    reason: str = ""
    ms: float | None = None


@dataclass
class TuneResult:
    """Every candidate's trial and the fastest (None when none could run); `from_record` when the winner came
    from an earlier run's record rather than from timing."""

    kernel: str
    manifest: Manifest
    problem: list[str]
    device: str
    trials: list[Trial] = field(default_factory=list)
    best: Trial | None = None
    from_record: bool = False

    def load(self, target: str = "auto", device: int = 0) -> Module:
        """The winner's module, loaded for `target`."""
        if self.best is None:
            raise TuneError(f"tuning `{self.kernel}` found no candidate that runs: "
                            + "; ".join(f"{t.id}: {t.reason}" for t in self.trials))
        return load(_artifact(self.manifest, self.best.id), target, device)


def problem_key(args: Sequence[Any]) -> list[str]:
    """Each argument as the tuner keys it: `float32[512,1024]` for an array (or a partition of one), the
    value's type name for anything else (a scalar's value does not change which config is fastest)."""
    key = []
    for arg in args:
        if isinstance(arg, str):
            key.append(arg)
            continue
        shape = getattr(arg, "shape", None)
        dtype = getattr(arg, "dtype", None) or getattr(getattr(arg, "array", None), "dtype", None)
        if shape is not None and dtype is not None:
            key.append(f"{np.dtype(str(dtype).replace('torch.', '')).name}[{','.join(str(int(d)) for d in shape)}]")
        else:
            key.append(type(arg).__name__)
    return key


def device_key(target: str = "auto", device: int = 0) -> str:
    """The device part of a record's key: "NVIDIA H200 sm_90", or "emulator"."""
    if resolve_target(target)[0] != "gpu":
        return "emulator"
    gpu = Device(device)
    major, minor = gpu.compute_capability
    return f"{gpu.name} sm_{major}{minor}"


def record_path(manifest: Manifest, problem: list[str], device: str) -> Path:
    """Where the best record of `problem` on `device` lives (the manifest's directory names the space)."""
    digest = hashlib.sha256(json.dumps([problem, device]).encode("utf-8")).hexdigest()[:24]
    return manifest.directory / f"best-{digest}.json"


def lookup(manifest: Manifest, problem: list[str], device: str) -> TuneResult | None:
    """The recorded result for `problem` on `device`, or None when this space was never tuned for it."""
    path = record_path(manifest, problem, device)
    if not path.is_file():
        return None
    doc = read_json(path, "tuning record")
    try:
        trials = [Trial(**t) for t in doc["trials"]]
        best = next(t for t in trials if t.id == doc["best"])
    except (KeyError, TypeError, StopIteration):
        return None  # a damaged record is timed again and rewritten
    if doc.get("space") != manifest.space or doc.get("problem") != problem or doc.get("device") != device:
        return None
    return TuneResult(manifest.kernel, manifest, problem, device, trials, best, from_record=True)


def records(kernel: str | None = None) -> list[TuneResult]:
    """Every best record in the cache (of `kernel`, or of all kernels), for `oxide tune show`."""
    found = []
    for manifest_path in sorted((cache_dir() / "tune").glob(f"*/{MANIFEST}")):
        manifest = Manifest.load(manifest_path)
        if kernel is not None and manifest.kernel != kernel:
            continue
        for path in sorted(manifest_path.parent.glob("best-*.json")):
            doc = read_json(path, "tuning record")
            result = lookup(manifest, list(doc.get("problem", [])), str(doc.get("device", "")))
            if result is not None:
                found.append(result)
    return found


def tune(manifest: Manifest | str | Path, setup: Callable[[CandidateRun], Launch], problem: Sequence[Any], *,
         target: str = "auto", device: int = 0, timer: Timer | None = None, rtol: float = 1e-4,
         atol: float = 1e-5, progress: ProgressLine | None = None, retune: bool = False) -> TuneResult:
    """Time every candidate of `manifest` (or pick the recorded winner) for `problem` (the launch's arguments,
    or their keys) on `target`; record and return the result."""
    manifest = manifest if isinstance(manifest, Manifest) else Manifest.load(manifest)
    where = resolve_target(target)[0]
    key, dev = problem_key(problem), device_key(where, device)
    if not retune:
        found = lookup(manifest, key, dev)
        if found is not None:
            return found
    timer = timer or (EventTimer() if where == "gpu" else WallTimer())
    progress = progress or ProgressLine()
    result = TuneResult(manifest.kernel, manifest, key, dev)
    session = _Session(manifest, setup, where, device, timer, rtol, atol)
    total = len(manifest.candidates)
    for number, candidate in enumerate(manifest.candidates, 1):
        progress.update(f"tuning {manifest.kernel} [{number}/{total}] {candidate.id} ...{_best_text(result.best)}")
        trial = session.trial(candidate)
        result.trials.append(trial)
        if trial.state == TIMED and (result.best is None or trial.ms < result.best.ms):  # type: ignore[operator]
            result.best = trial
    skipped = sum(t.state == SKIPPED for t in result.trials)
    progress.finish(f"tuned {manifest.kernel} on {dev}: {total - skipped} timed, {skipped} skipped;"
                    + (_best_text(result.best) or " no candidate ran"))
    if result.best is not None:
        _record(result)
    return result


def _best_text(best: Trial | None) -> str:
    return f" best {best.id} {best.ms:.4g} ms" if best is not None and best.ms is not None else ""


def _record(result: TuneResult) -> None:
    doc = {"kernel": result.kernel, "space": result.manifest.space, "problem": result.problem,
           "device": result.device, "best": result.best.id if result.best else None,
           "trials": [asdict(t) for t in result.trials]}
    write_json(record_path(result.manifest, result.problem, result.device), doc)


def _artifact(manifest: Manifest, candidate_id: str) -> Path:
    for candidate in manifest.candidates:
        if candidate.id == candidate_id and candidate.artifact is not None:
            return candidate.artifact
    raise TuneError(f"the tuning manifest of `{manifest.kernel}` has no built candidate {candidate_id}; build the "
                    "candidates again")


class _Session:
    """The candidates' shared state while timing: the stream, the first valid output (the reference), and
    whether a kernel fault has made the device unusable for the rest."""

    def __init__(self, manifest: Manifest, setup: Callable[[CandidateRun], Launch], target: str, device: int,
                 timer: Timer, rtol: float, atol: float):
        self.manifest, self.setup, self.target, self.device = manifest, setup, target, device
        self.timer, self.rtol, self.atol = timer, rtol, atol
        self.stream: Any = None
        if target == "gpu":
            from oxide.runtime.stream import Stream

            self.stream = Stream(Device(device))
        self.reference: tuple[str, np.ndarray] | None = None
        self.fault: str | None = None

    def trial(self, candidate: Candidate) -> Trial:
        """Gate, check and time one candidate; a refusal becomes a skipped trial with its reason."""
        def skipped(reason: str) -> Trial:
            return Trial(candidate.id, candidate.config, SKIPPED, reason)

        if candidate.skipped is not None:
            return skipped(candidate.skipped)
        if candidate.artifact is None:
            return skipped("the manifest names no artifact for it")
        if self.fault is not None:
            return skipped(f"not run: {self.fault}")
        try:
            module = load(candidate.artifact, self.target, self.device)
            kernel = module.kernels.get(self.manifest.kernel)
            if kernel is None:
                return skipped(f"its artifact has no kernel `{self.manifest.kernel}`")
            run = CandidateRun(candidate.id, candidate.config, module, kernel, self.stream)
            launch = self.setup(run)
            output = launch()
            if self.stream is not None:
                self.stream.synchronize()
            mismatch = self._check(candidate.id, output)
            if mismatch:
                return skipped(mismatch)
            return Trial(candidate.id, candidate.config, TIMED, ms=float(self.timer(run, launch)))
        except KernelFaultError as exc:
            # A faulting kernel leaves the context unusable: nothing after it can be launched or trusted.
            self.fault = f"candidate {candidate.id} faulted and the GPU context is lost"
            return skipped(str(exc))
        except OxideRuntimeError as exc:
            return skipped(str(exc))

    def _check(self, candidate_id: str, output: Any) -> str | None:
        """Why `output` differs from the first valid candidate's, or None (it becomes the reference if first)."""
        if output is None:
            return None
        host = _host(output)
        if self.reference is None:
            self.reference = (candidate_id, host)
            return None
        first, expected = self.reference
        if host.shape != expected.shape:
            return f"its output has shape {host.shape}, candidate {first}'s has {expected.shape}"
        if not np.allclose(host, expected, rtol=self.rtol, atol=self.atol, equal_nan=True):
            diff = float(np.nanmax(np.abs(host.astype(np.float64) - expected.astype(np.float64))))
            return f"its output differs from candidate {first}'s (largest difference {diff:.3g})"
        return None


def _host(output: Any) -> np.ndarray:
    """A launch's output as a numpy array (device arrays are copied back; a partition gives its array)."""
    output = getattr(output, "array", output)
    if hasattr(output, "get"):  # oxide's DeviceBuffer / EmulatedBuffer, CuPy
        return np.asarray(output.get())
    if hasattr(output, "detach"):  # a torch tensor
        return output.detach().cpu().numpy()
    return np.asarray(output)
