"""Autotuning tile kernels, compiler side: build one artifact per configuration of a tuning space into the
artifact cache, write the space's manifest, and (where a device is) hand it to the timing step
(oxide.runtime.tune). The shape is cutile-rs's `Autotuner`:

    tuner = (Autotuner("autotune.rs", "rms_norm", fixed={"N": 1024})
             .configs(Config.grid(BLOCK_SIZE=[32, 64, 128, 256, 4096]))
             .prune(lambda c: c.int("BLOCK_SIZE") <= 1024))
    result = tuner.run(setup, problem=(x, w, out))      # builds (once), times (once per problem and device)
    result.trials, result.best                          # every candidate's outcome, the fastest

A config's parameters are the kernel's generic parameters (`BLOCK_SIZE`, given to the build as
`--instantiate rms_norm=1024,64` would be) and the tile GEMM lowering's knobs (`stages`, `warps`, ...: docs/
tile-hopper.md); `fixed` gives the parameters every config shares. The space's key hashes the source, the
kernel, the configs and which were pruned, the chips, the optimisation level and the compiler version, so a
second run (or `oxide tune build` with the same space) reuses the manifest and its artifacts: on a machine
without the compiler, a space built elsewhere and carried in OXIDE_CACHE_DIR is all that is needed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from oxide.api import build, compiler_version, default_chip
from oxide.diagnostics import OxideError
from oxide.ir.source_text import read_source
from oxide.runtime.tune import CandidateRun, TuneResult, device_key, lookup, problem_key, tune
from oxide.runtime.tune_manifest import MANIFEST, Candidate, Manifest, space_dir
from oxide.runtime.tune_progress import ProgressLine
from oxide.runtime.tune_timing import Launch, Timer

PRUNED = "pruned (the prune predicate refused it)"


class Config:
    """One point of a tuning space: parameter names to values (`Config(BLOCK_SIZE=64)`)."""

    def __init__(self, params: Mapping[str, Any] | None = None, **more: Any):
        self.params: dict[str, Any] = {**(params or {}), **more}

    @property
    def id(self) -> str:
        """`BLOCK_SIZE=64,stages=3`: the name of the candidate in progress lines, manifests and records."""
        return ",".join(f"{k}={v}" for k, v in self.params.items())

    def int(self, name: str) -> int:
        """An integer parameter (cutile's `config.int("BLOCK_SIZE")`)."""
        return int(self.params[name])

    @staticmethod
    def grid(**axes: Iterable[Any]) -> list["Config"]:
        """Every combination of the axes' values, the last axis varying fastest."""
        names = list(axes)
        return [Config(dict(zip(names, values))) for values in itertools.product(*(list(axes[n]) for n in names))]

    def __repr__(self) -> str:
        return f"Config({self.id})"


class Autotuner:
    """The configurations of one tile kernel to build, time and choose from (see the module docstring)."""

    def __init__(self, source: str | Path, kernel: str, *, fixed: Mapping[str, Any] | None = None,
                 chips: list[str] | None = None, opt_level: int | None = None):
        self.source, self.kernel = Path(source), kernel
        self.fixed = dict(fixed or {})
        self.chips, self.opt_level = chips, opt_level
        self._configs: list[Config] = []
        self._prune: Callable[[Config], bool] | None = None

    def configs(self, configs: Iterable[Config | Mapping[str, Any]]) -> "Autotuner":
        """Set the search space (in the order it is built and timed)."""
        self._configs = [c if isinstance(c, Config) else Config(c) for c in configs]
        return self

    def prune(self, keep: Callable[[Config], bool]) -> "Autotuner":
        """Keep only configs for which `keep(config)` is true; the others are reported as pruned, never built."""
        self._prune = keep
        return self

    def space(self) -> str:
        """The key of this tuning space (the name of its directory in the cache)."""
        if not self._configs:
            raise OxideError(f"autotuning `{self.kernel}`: the search space is empty; give configs, e.g. "
                             "`.configs(Config.grid(BLOCK_SIZE=[64, 128]))`")
        doc = {"source": hashlib.sha256(read_source(self.source).encode("utf-8")).hexdigest(),
               "file": self.source.name, "kernel": self.kernel, "fixed": self.fixed,
               "configs": [c.params for c in self._configs], "pruned": sorted(self._pruned()),
               "chips": self._chips(), "opt_level": self.opt_level, "compiler": compiler_version()}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:32]

    def build(self, progress: ProgressLine | None = None) -> Manifest:
        """The space's manifest: from the cache, or built now (every candidate that is not pruned compiled
        through the artifact cache; one that fails to compile is recorded as skipped with its error)."""
        space = self.space()
        if (space_dir(space) / MANIFEST).is_file():
            return Manifest.load(space_dir(space))
        _require_compiler(self)
        text = read_source(self.source)
        generics = _generic_parameters(self.source, text, self.kernel)
        for config in self._configs:
            _check_names(self.kernel, [*self.fixed, *config.params], generics)
        manifest = Manifest(self.kernel, self.source.name, space, self._chips())
        progress = progress or ProgressLine()
        pruned = self._pruned()
        for number, config in enumerate(self._configs, 1):
            progress.update(f"building {self.kernel} [{number}/{len(self._configs)}] {config.id} ...")
            if config.id in pruned:
                manifest.candidates.append(Candidate(config.id, config.params, skipped=PRUNED))
                continue
            manifest.candidates.append(self._candidate(config, generics, text))
        skipped = sum(c.skipped is not None for c in manifest.candidates)
        path = manifest.write()
        progress.finish(f"built {len(manifest.candidates) - skipped} candidates of {self.kernel} "
                        f"({skipped} skipped) into {path.parent}")
        return manifest

    def run(self, setup: Callable[[CandidateRun], Launch], problem: Sequence[Any], *, target: str = "auto",
            device: int = 0, timer: Timer | None = None, rtol: float = 1e-4, atol: float = 1e-5,
            progress: ProgressLine | None = None, retune: bool = False) -> TuneResult:
        """Build (or reuse) the candidates and time them for `problem` (the launch's arguments); a problem
        already tuned on this device returns its recorded winner without timing."""
        return tune(self.build(progress), setup, problem, target=target, device=device, timer=timer,
                    rtol=rtol, atol=atol, progress=progress, retune=retune)

    def best(self, problem: Sequence[Any], *, target: str = "auto", device: int = 0) -> TuneResult | None:
        """The recorded result for `problem` on this device, or None: never builds or times anything."""
        directory = space_dir(self.space())
        if not (directory / MANIFEST).is_file():
            return None
        return lookup(Manifest.load(directory), problem_key(problem), device_key(target, device))

    def _chips(self) -> list[str]:
        if self.chips is None:
            self.chips = [default_chip()]  # fixed on first use: the key must not change under a running tuner
        return self.chips

    def _pruned(self) -> set[str]:
        return {c.id for c in self._configs if self._prune is not None and not self._prune(c)}

    def _candidate(self, config: Config, generics: list[str], text: str) -> Candidate:
        """Build one config; a compile error (or a knob value no path takes) makes it a skipped candidate."""
        params = {**self.fixed, **config.params}
        try:
            instance, knobs = _split(params, generics)
            artifact = build(self.source, chips=self._chips(), opt_level=self.opt_level, knobs=knobs or None,
                             instances={self.kernel: [instance]} if instance else None)
        except OxideError as exc:
            return Candidate(config.id, config.params, skipped=exc.render({str(self.source): text}))
        return Candidate(config.id, config.params, artifact=artifact)


def _require_compiler(tuner: Autotuner) -> None:
    """OxideError when the space must be built here but the compiler's wheels are absent."""
    try:
        import mlir.ir  # noqa: F401
    except ImportError:
        from oxide.runtime.cache import cache_dir

        raise OxideError(f"cannot build the tuning candidates of `{tuner.kernel}` ({tuner.source}): the MLIR wheels "
                         f"are not installed here, and the cache ({cache_dir()}) has no manifest of this space for "
                         f"compiler {compiler_version()}; build it where the compiler is (`oxide tune build`, or "
                         "the same tuning call) and carry OXIDE_CACHE_DIR") from None


def _generic_parameters(path: Path, text: str, kernel: str) -> list[str]:
    """The generic parameters of tile entry `kernel` in source order; OxideError when there is no such entry."""
    from oxide.frontends.syntax.parser import Source, parse
    from oxide.frontends.tile.module import collect, is_tile_source

    if not is_tile_source(text):
        raise OxideError(f"autotuning takes tile kernels, and {path} has no `#[cutile::module]`")
    crate = collect(Source(str(path), text), parse(Source(str(path), text)).root_node)
    function = crate.function(kernel) if kernel in crate.entries else None
    if function is None:
        raise OxideError(f"{path} has no tile entry `{kernel}` (entries: {', '.join(crate.entries) or 'none'})")
    return [g.name for g in function.generics]


def _check_names(kernel: str, params: Iterable[str], generics: list[str]) -> None:
    """OxideError for a parameter that is neither a generic parameter of `kernel` nor a knob, or a generic
    parameter without a value: a mistake in the tuning call itself, so it stops the build."""
    from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs

    names, knob_names = set(params), list(GemmKnobs.__dataclass_fields__)
    unknown = sorted(name for name in names if name not in generics and name not in knob_names)
    if unknown:
        raise OxideError(f"config parameter `{unknown[0]}` is neither a generic parameter of `{kernel}` "
                         f"({', '.join(generics) or 'none'}) nor a lowering knob ({', '.join(knob_names)})")
    missing = [name for name in generics if name not in names]
    if missing:
        raise OxideError(f"generic parameter `{missing[0]}` of `{kernel}` has no value: give it in every config "
                         "or in `fixed`")


def _split(params: Mapping[str, Any], generics: list[str]) -> tuple[list[str], dict[str, Any]]:
    """A config's parameters as the build's instance arguments (in the kernel's generic order) and knobs;
    OxideError for a knob value no lowering path takes (that config's own error)."""
    from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs

    knobs = {name: value for name, value in params.items() if name not in generics}
    GemmKnobs.of(knobs)
    return [str(params[name]) for name in generics], knobs
