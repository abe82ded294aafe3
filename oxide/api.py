"""oxide's Python entry points: compile Rust kernels (`oxide.compile`, `oxide.compile_file`), build kernel
artifacts through the on-disk cache (`oxide.build`), and build-and-load them for launching (`oxide.load`).

A CompiledModule carries the PTX per target, each kernel's signature and the emulator program; `artifact()`
turns it into what the runtime loads (oxide.runtime.artifact).
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from oxide.diagnostics import Diagnostic
from oxide.ir.diagnostics import collected_warnings
from oxide.ir.source_text import read_source
from oxide.runtime.artifact import Artifact
from oxide.runtime.signature import KernelSpec, UnpassableParameter, param_spec
from oxide.target import DEFAULT_CHIP, Target

if TYPE_CHECKING:  # the frontend imports MLIR; `oxide.load` of a cached build must work without it
    from oxide.frontends.kernel_module import KernelInfo

class OxideWarning(UserWarning):
    """A compiler warning about a kernel (a possible race, a possibly divergent barrier), rendered with its
    source line; the same diagnostics are on CompiledModule.warnings."""


@dataclass
class CompiledModule:
    """Kernels compiled from one source: PTX per chip, kernel signatures, the simt IR, the emulator program
    (None where the emulator backend is not installed) and phase timings."""

    name: str
    ptx: dict[str, str]
    kernels: list[KernelInfo]
    simt_ir: str
    skipped_generic: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    emulator: str | None = None
    warnings: list[Diagnostic] = field(default_factory=list)
    tile: dict[str, dict[str, Any]] = field(default_factory=dict)  # tile kernels by entry: {"warps": N}

    def kernel(self, name: str) -> KernelInfo:
        """A kernel by name or entry name."""
        for k in self.kernels:
            if name in (k.name, k.entry):
                return k
        raise KeyError(f"no kernel `{name}` in {self.name} (kernels: {', '.join(k.entry for k in self.kernels)})")

    def artifact(self, source: str = "", options: dict[str, Any] | None = None) -> Artifact:
        """The runtime artifact of this module (signatures derived from the kernel infos)."""
        specs = [KernelSpec(k.name, k.entry, [param_spec(p.name, p.rust_type, p.mlir_types, p.elem_layout) for p in k.params],
                            dict(k.contract), list(k.launch_bounds), self.tile.get(k.entry),
                            list(k.cluster_dims), k.cooperative) for k in self.kernels]
        stem = Path(self.name).name.split(".")[0] or "kernels"
        meta = {"source": self.name, "source_hash": hashlib.sha256(source.encode()).hexdigest(),
                "compiler": compiler_version(), "options": options or {},
                "uninstantiated_generics": list(self.skipped_generic)}
        return Artifact(stem, specs, dict(self.ptx), self.emulator, meta)


def compile(source: str, name: str = "<source>.rs", chip: str = DEFAULT_CHIP,
            instances: dict[str, list[list[str]]] | None = None, opt_level: int | None = None,
            knobs: Mapping[str, Any] | None = None) -> CompiledModule:
    """Compile Rust kernel source to PTX for `chip`; raise OxideError (located diagnostics) on bad input.

    A source with a `#[cutile::module]` is tile kernels (the Tile track, frontends/tile); any other source is
    SIMT kernels (frontends/simt). `simt_ir` holds the frontend's IR: simt, or tile for tile kernels. `knobs`
    are the tile GEMM lowering's compile options (docs/tile-hopper.md, "Knobs"): {"stages": 3, ...}.
    `opt_level` is LLVM's (0-3); None takes the track's default (`default_opt_level`)."""
    from oxide.backend import compile_to_ptx
    from oxide.backend.output_facts import tile_kernel_whole_stores
    from oxide.backend.ptx import tile_kernel_pipelines, tile_kernel_warps
    from oxide.frontends import compile_source
    from oxide.dialects.context import make_context

    from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs

    target = Target(chip, opt_level=3 if opt_level is None else opt_level)  # the chip checked before any work
    gemm_knobs = GemmKnobs.of(knobs)
    start = time.perf_counter()
    context = make_context()
    timings = {"context": time.perf_counter() - start}
    result = compile_source(source, name, context, instances)
    timings.update(result.timings)
    _check_passable(result, name, source)
    frontend_ir = str(result.module)
    tile = {entry: {"warps": warps} for entry, warps in tile_kernel_warps(result.module, gemm_knobs).items()}  # before lowering
    for entry, stored in tile_kernel_whole_stores(result.module).items():
        if stored:
            tile[entry]["stores_whole"] = stored  # a staged copy of these outputs needs no filling (output_facts.py)
    if opt_level is None:
        target = replace(target, opt_level=default_opt_level(bool(tile)))
    with context:
        for entry, pipeline in tile_kernel_pipelines(result.module, target, gemm_knobs).items():
            tile[entry].update(pipeline)  # the runtime builds these tensor maps and sizes the dynamic shared memory
    # A source whose kernels are all generic and not instantiated yet has nothing to emulate.
    emulator = _emulator_program(result.module, timings) if result.kernels else None
    start = time.perf_counter()
    dynamic_shared: dict[str, int] = {}
    with context, collected_warnings() as found:
        ptx = compile_to_ptx(result.module, target, knobs=gemm_knobs, dynamic_shared=dynamic_shared)
    _record_dynamic_shared(tile, dynamic_shared)
    timings["passes+nvptx"] = time.perf_counter() - start
    for diagnostic in found:
        # Python's warnings machinery shows each once per place and lets callers filter or escalate them.
        warnings.warn(OxideWarning(diagnostic.render({name: source})), stacklevel=2)
    return CompiledModule(name, {chip: "\n".join(ptx.values())}, result.kernels, frontend_ir, result.skipped_generic,
                          timings, emulator, list(found), tile)


# LLVM's level when the caller names none. The tile lowering hands LLVM straight-line, already merged code that
# ptxas schedules; -O3 adds nothing to it over -O1 but compile time: the row kernels' PTX is byte-identical at
# both levels, and the GEMMs' and flash attention's run at the same speed on an H200 (docs/compile-time.md,
# round 5). SIMT kernels (loops, calls, generic code written by hand) keep -O3.
TILE_OPT_LEVEL, SIMT_OPT_LEVEL = 1, 3


def default_opt_level(tile: bool) -> int:
    """LLVM's optimisation level for a module of tile kernels (`tile`) or of SIMT kernels, when none is asked."""
    return TILE_OPT_LEVEL if tile else SIMT_OPT_LEVEL


def _record_dynamic_shared(tile: dict[str, dict[str, Any]], needs: dict[str, int]) -> None:
    """Each tile entry's (and launch variant's) dynamic shared memory as the lowering sized it: the GEMM's ring
    and any static arrays moved beside it past 48 KiB (tile_to_simt/shared_plan.py)."""
    for entry, facts in tile.items():
        if entry in needs:
            facts["dynamic_shared"] = needs[entry]
        for variant in facts.get("variants", []):
            if variant["entry"] in needs:
                variant["dynamic_shared"] = needs[variant["entry"]]


def _check_passable(result: Any, name: str, source: str) -> None:
    """A located error for a kernel parameter the runtime could not pass from Python (before any PTX is made)."""
    from mlir import ir

    from oxide.backend.ptx import tile_kernel_warps
    from oxide.diagnostics import OxideError
    from oxide.ir.diagnostics import source_loc
    from oxide.runtime.elements import has_wide_integers, unpassable

    tile = tile_kernel_warps(result.module)  # tile kernels' tensors and pointers have their own signature rules
    funcs = {ir.StringAttr(f.operation.attributes["sym_name"]).value: f.operation.location
             for op in result.module.body.operations if op.operation.name == "gpu.module"
             for f in op.regions[0].blocks[0].operations if f.operation.name == "gpu.func"}
    problems = []
    for k in result.kernels:
        for p in [] if k.entry in tile else k.params:
            try:
                spec = param_spec(p.name, p.rust_type, p.mlir_types, p.elem_layout)
                # Other element types the runtime lacks (f16 slices, ...) are refused when such an argument is
                # passed; 128-bit integers can never be.
                why = unpassable(spec) if has_wide_integers(spec) else None
            except UnpassableParameter as exc:  # the artifact could not even be written
                why = exc.reason
            if why:
                loc = source_loc(funcs[k.entry], {"-": name}) if k.entry in funcs else None
                hint = "; pass a 128-bit integer as two u64 halves (`lo: u64, hi: u64`)" if "128" in why else ""
                problems.append(Diagnostic("error", f"kernel `{k.name}`: parameter `{p.name}: {p.rust_type}` cannot be "
                                                    f"passed from Python: {why}{hint}", loc))
    if problems:
        raise OxideError(problems)


def _emulator_program(module: Any, timings: dict[str, float]) -> str | None:
    """The emulator program of the simt module (before it is lowered), if the emulator backend exists."""
    try:
        from oxide.backend.emulator import emit_program
        from oxide.ir.rules import LoweringError
    except ImportError:
        return None
    start = time.perf_counter()
    try:
        program = emit_program(module, strict=False)  # a kernel it cannot run says so when launched
    except LoweringError:
        # Some kernels cannot run on the emulator (inline PTX, ...): the PTX still builds, and a CPU launch
        # of this module reports that it has no emulator program.
        program = None
    timings["emulator"] = time.perf_counter() - start
    return program


def compile_file(path: str | Path, chip: str = DEFAULT_CHIP,
                 instances: dict[str, list[list[str]]] | None = None, opt_level: int | None = None,
                 knobs: Mapping[str, Any] | None = None) -> CompiledModule:
    """Compile a .rs file (see `compile`)."""
    path = Path(path)
    return compile(read_source(path), str(path), chip, instances, opt_level, knobs)


@functools.lru_cache(maxsize=1)
def compiler_version() -> str:
    """The package version plus a hash of the compiler's own sources, so editing the compiler invalidates the
    artifact cache (the runtime is left out: it does not change what is compiled)."""
    from oxide import __version__

    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        if "runtime" not in path.relative_to(root).parts[:1]:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


# Compute capabilities whose arch-specific chip is the default where such a GPU is present: its PTX runs only on
# that capability, which the device has, and it adds what the fast paths need (on 9.0: wgmma, setmaxnreg, TMA
# multicast), so that `oxide.load` on an H100/H200 gets the Hopper GEMM and attention and not mma.sync.
ARCH_SPECIFIC = {(9, 0)}


def default_chip() -> str:
    """The chip to compile for: $OXIDE_TARGET, else device 0's compute capability (its arch-specific chip, sm_90a,
    on a 9.0 device), else DEFAULT_CHIP."""
    chosen = os.environ.get("OXIDE_TARGET")
    if chosen:
        return chosen
    from oxide.runtime.driver import check, cuda, gpu_status

    if gpu_status()[0]:
        drv = cuda()
        device = check(drv.cuDeviceGet(0), "cuDeviceGet")
        attr = drv.CUdevice_attribute
        major = check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device), "cc")
        minor = check(drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device), "cc")
        return f"sm_{major}{minor}{'a' * ((major, minor) in ARCH_SPECIFIC)}"
    return DEFAULT_CHIP


def build(source: str | Path, *, chips: list[str] | None = None, instances: dict[str, list[list[str]]] | None = None,
          opt_level: int | None = None, out_dir: str | Path | None = None, cache: bool = True,
          knobs: Mapping[str, Any] | None = None) -> Path:
    """Compile a .rs file into an artifact; return the path of its .oxide.json.

    The artifact is built through the cache (`OXIDE_CACHE_DIR`, default ~/.cache/oxide), keyed by source,
    options, compiler version and targets, so an unchanged source is not compiled again (`cache=False`
    always compiles); with `out_dir` it is also written there. `chips` defaults to `[default_chip()]`; `knobs`
    and `opt_level` are as in `compile`.
    """
    from oxide.runtime.cache import cache_key, cached

    path = Path(source)
    text = read_source(path)
    chips = chips or [default_chip()]
    options = {"chips": chips, "instances": instances or {}, "opt_level": opt_level}
    if knobs:
        # In the cache key and the artifact: another value is another build. Checked and normalised where the
        # compiler is ({"stages": "2"} and {"stages": 2} are one build); a machine without it (which can only
        # load cached builds) keys them as given.
        try:
            from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
        except ImportError:
            options["knobs"] = dict(knobs)
        else:
            if normalised := GemmKnobs.of(knobs).as_dict():
                options["knobs"] = normalised

    def compile_all() -> Artifact:
        try:
            import mlir.ir  # noqa: F401
        except ImportError:
            from oxide.diagnostics import OxideError
            from oxide.runtime.cache import cache_dir

            raise OxideError(f"cannot compile {path}: the MLIR wheels (pip install oxide-mlir) are not installed here, "
                             f"and the artifact cache ({cache_dir()}) has no build of this source for compiler "
                             f"{compiler_version()}; build it where the compiler is and carry OXIDE_CACHE_DIR") from None
        artifact: Artifact | None = None
        for chip in chips:
            compiled = compile(text, str(path), chip, instances, opt_level, knobs)
            if artifact is None:
                artifact = compiled.artifact(text, options)
            else:
                artifact.ptx.update(compiled.ptx)
        assert artifact is not None
        return artifact

    if not cache:
        if out_dir is None:
            raise ValueError("build(cache=False) needs out_dir")
        return compile_all().write(out_dir)
    # The file name is part of the key because it names the artifact and appears in its diagnostics.
    key = cache_key(text, {**options, "file": path.name}, compiler_version(), ",".join(chips))
    entry = cached(key, compile_all)[0]
    return entry if out_dir is None else Artifact.load(entry).write(out_dir)


def load(source: str | Path, *, target: str = "auto", device: int = 0, chips: list[str] | None = None,
         instances: dict[str, list[list[str]]] | None = None, **emulator_options: Any) -> Any:
    """Build (through the cache) and load a .rs file, or load an artifact (.oxide.json or its directory).

    Generic kernels of a .rs file without `instances` are instantiated on first call, for the type arguments
    the call's arguments show (oxide.generics)."""
    from oxide.runtime import load as load_artifact

    path = Path(source)
    if path.suffix != ".rs":
        return load_artifact(path, target, device, **emulator_options)
    module = load_artifact(build(path, chips=chips, instances=instances), target, device, **emulator_options)
    try:
        from oxide.generics import generic_kernels

        generics = generic_kernels(read_source(path), str(path))
    except ImportError:  # no frontend here (a GPU server running cached builds): nothing to instantiate lazily
        generics = {}
    for name, generic in generics.items():
        if name not in module.kernels:
            lazy = LazyGeneric(generic, path, chips, dict(instances or {}), module.target, device, emulator_options)
            module.kernels[name] = lazy
            module.__dict__[name] = lazy
    return module


class LazyGeneric:
    """A generic kernel compiled per type arguments on first use (`mod.scale(x_f32, ...)` builds scale<f32>)."""

    def __init__(self, generic: Any, path: Path, chips: list[str] | None, instances: dict[str, list[list[str]]],
                 target: str, device: int, emulator_options: dict[str, Any]):
        self.generic, self.path, self.chips, self.instances = generic, path, chips, instances
        self.target, self.device, self.emulator_options = target, device, emulator_options
        self.loaded: dict[tuple[str, ...], Any] = {}
        self.unchecked = _LazyUnchecked(self)

    def kernel(self, args: tuple[Any, ...]) -> Any:
        """The instance for these arguments, compiled (and cached on disk) when first seen."""
        from oxide.runtime import load as load_artifact
        from oxide.generics import infer

        type_args = tuple(infer(self.generic, args))
        kernel = self.loaded.get(type_args)
        if kernel is None:
            self.instances[self.generic.name] = [list(t) for t in self.loaded] + [list(type_args)]
            artifact = build(self.path, chips=self.chips, instances=self.instances)
            module = load_artifact(artifact, self.target, self.device, **self.emulator_options)
            group = module.kernels[self.generic.name]
            for instance in getattr(group, "instances", [group]):
                key = tuple(instance.spec.entry[len(self.generic.name) + 1:].split("_")) if type_args else ()
                self.loaded.setdefault(key, instance)
            kernel = self.loaded.get(type_args) or group.select(args)
            self.loaded[type_args] = kernel
        return kernel

    def __call__(self, *args: Any, config: Any, stream: Any = None) -> None:
        self.kernel(args)(*args, config=config, stream=stream)

    def __getitem__(self, key: Any) -> Any:
        return lambda *args: self.kernel(args)[key](*args)

    def prepare(self, config: Any) -> Any:
        """A prepared launch that picks (and if needed compiles) the instance at call time."""
        return lambda *args, stream=None: self.kernel(args).prepare(config)(*args, stream=stream)

    def __repr__(self) -> str:
        return f"<generic kernel {self.generic.name}, instantiated on use: {sorted(self.loaded)}>"


class _LazyUnchecked:
    def __init__(self, lazy: LazyGeneric):
        self.lazy = lazy

    def __call__(self, *args: Any, config: Any, stream: Any = None) -> None:
        self.lazy.kernel(args).unchecked(*args, config=config, stream=stream)

    def __getitem__(self, key: Any) -> Any:
        return lambda *args: self.lazy.kernel(args).unchecked[key](*args)
