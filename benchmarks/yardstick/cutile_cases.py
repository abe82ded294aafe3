"""The cutile-rs examples' host programs, restated in oxide's own words for cutile_run.py.

Each `Case` is one example of cutile-rs's `cutile-examples/examples/*.rs`, written from reading its `fn main`:
which kernels it instantiates with which generic arguments (the sizes its host code uses; smaller sizes for the
emulator where those are too big, with the reason), how to build inputs (random and seeded, never zeros, so a
kernel that writes nothing or reads the wrong element cannot pass), what it launches and the numpy reference of
what its host code checks (or, where the host code only prints, of what the example computes). Host-only
features (streams, graphs, async chains, foreign memory, JIT caches) are exercised through the oxide runtime
calls that stand for them, named in `host_features`. No code of the examples is kept here: only facts of their
host code (sizes, generics, expected values).

This module holds the framework and the element-wise, norm and print examples; cutile_cases_mma.py holds the
GEMM family, cutile_cases_model.py the graph and MLP models, cutile_cases_attention.py flash attention. It
imports only oxide.runtime (and numpy): the GPU machine runs these cases with no compiler installed.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import sys
import tempfile
from typing import Any, Callable

import numpy as np

import oxide.tile

Arrays = dict[str, np.ndarray]
Sizes = dict[str, Any]


@dataclasses.dataclass
class Env:
    """What a case's launch sees: the loaded module and where it runs. On the GPU, `dev` copies an array to
    device memory (stream launches need device arrays); on the emulator it copies it to a new numpy array."""

    module: Any

    @property
    def gpu(self) -> bool:
        return self.module.target == "gpu"

    def dev(self, array: np.ndarray) -> Any:
        """A copy the kernel may write (device memory on the GPU), so the case's inputs stay as they were."""
        return self.module.to_device(np.ascontiguousarray(array)) if self.gpu else array.copy()

    def kernel(self, entry: str) -> Any:
        return self.module.kernels[entry]

    def stream(self) -> Any:
        """A new stream on the GPU, None on the emulator (whose launches complete at once)."""
        return self.module.stream()

    def sync(self, stream: Any = None) -> None:
        if stream is not None:
            stream.synchronize()
        elif self.gpu:
            self.module.synchronize()


def host(array: Any) -> np.ndarray:
    """A numpy copy of a device array (a numpy array is returned as it is)."""
    return array if isinstance(array, np.ndarray) else np.asarray(array.get())


def part(array: Any, tile: tuple[int, ...]) -> oxide.tile.Partition:
    return oxide.tile.partition(array, tile)


def entry(kernel: str, *args: Any) -> str:
    """The entry name oxide gives an instance: `gemm_f32_16_16` (array arguments spelled `AxB`)."""
    spelled = ["x".join(str(v) for v in a) if isinstance(a, (list, tuple)) else str(a) for a in args]
    return "_".join([kernel, *spelled])


def spell(value: Any) -> str:
    """A generic argument as oxide's `instances` option takes it: integers, type names, `[a, b]` arrays."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def instance(kernel: str, *args: Any) -> dict[str, list[list[str]]]:
    return {kernel: [[spell(a) for a in args]]}


def merge(*parts: dict[str, list[list[str]]]) -> dict[str, list[list[str]]]:
    out: dict[str, list[list[str]]] = {}
    for p in parts:
        for name, lists in p.items():
            out.setdefault(name, []).extend(lists)
    return out


RUST_TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32}


def dtype(name: Any) -> np.dtype:
    """The numpy dtype of a Rust element type name (or of a numpy type)."""
    return np.dtype(RUST_TYPES.get(name, name))


def randn(rng: np.random.Generator, shape: Any, of: Any = np.float32, scale: float = 1.0) -> np.ndarray:
    """Seeded normal values with no exact zeros (a zero hides a missing write)."""
    x = rng.standard_normal(shape) * scale
    x[x == 0] = scale
    return x.astype(dtype(of))


def uniform(rng: np.random.Generator, shape: Any, low: float = 0.05, high: float = 1.0) -> np.ndarray:
    return rng.uniform(low, high, shape).astype(np.float32)


@dataclasses.dataclass
class Tol:
    """How an output is compared: exact (0, 0), or |got - want| <= atol + rtol * |want| everywhere."""

    rtol: float = 0.0
    atol: float = 0.0
    why: str = ""


EXACT = Tol()


@dataclasses.dataclass
class Case:
    """One cutile-rs example as a launch recipe. `refusal` marks an example oxide must refuse (Blackwell-only
    formats): the compile stage then passes when the error is located and contains that text."""

    example: str
    kernels: str  # which kernels with which generics, for the report
    host: Sizes  # the sizes the example's host code uses
    instances: Callable[[Sizes], dict[str, list[list[str]]]] = lambda s: {}
    inputs: Callable[[np.random.Generator, Sizes], Arrays] = lambda rng, s: {}
    run: Callable[[Env, Sizes, Arrays], Arrays] | None = None
    reference: Callable[[Sizes, Arrays], Arrays] = lambda s, a: {}
    tolerance: dict[str, Tol] = dataclasses.field(default_factory=dict)
    emulator: Sizes | None = None  # smaller sizes for the emulator; None: the host's
    smaller_why: str = ""
    chip: str = "sm_90"
    host_features: str = ""
    refusal: str | None = None
    gpu_only: tuple[str, ...] = ()  # outputs only a GPU run produces (a graph replay)
    cache_check: bool = False  # the compile stage also checks a second build is read from the artifact cache
    note: str = ""

    def sizes(self, stage: str) -> Sizes:
        """The sizes of a stage: "emulator" runs `emulator` where it is set, everything else the host's."""
        return self.emulator if stage == "emulator" and self.emulator is not None else self.host


def compare(got: Arrays, want: Arrays, tolerance: dict[str, Tol]) -> list[str]:
    """[] when every expected output matches, else one line per output that does not (with its worst error)."""
    failures = []
    for key, expected in want.items():
        if key not in got:
            failures.append(f"{key}: not produced")
            continue
        actual = np.asarray(got[key])
        if actual.shape != expected.shape:
            failures.append(f"{key}: shape {actual.shape}, expected {expected.shape}")
            continue
        if expected.dtype.kind in "USO":
            bad = np.flatnonzero(actual != expected)
            if bad.size:
                failures.append(f"{key}: {actual.flat[bad[0]]!r}, expected {expected.flat[bad[0]]!r}")
            continue
        tol = tolerance.get(key, EXACT)
        a, e = actual.astype(np.float64), expected.astype(np.float64)
        err = np.abs(a - e)
        bound = tol.atol + tol.rtol * np.abs(e)
        bad = np.flatnonzero(~(err <= bound))  # NaN counts as bad
        if bad.size:
            i = int(bad[0])
            worst = float(np.nanmax(err)) if np.isfinite(err).any() else float("nan")
            failures.append(f"{key}: {bad.size} of {a.size} outside atol {tol.atol:g} rtol {tol.rtol:g} (first "
                            f"[{i}]: {a.flat[i]:.6g}, expected {e.flat[i]:.6g}; max abs error {worst:.3g})")
    return failures


def captured_stdout(action: Callable[[], None]) -> str:
    """What `action` writes to the process's standard output, the device printf's buffer included (both go
    through file descriptor 1, so it is redirected to a file for the duration)."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        try:
            action()
            sys.stdout.flush()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode(errors="replace")


# --- add (async_add, cudarc_interop, jit_custom_store, jit_disk_cache) -------------------------------------


def _add_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    return {"x": randn(rng, s["n"]), "y": randn(rng, s["n"]), "z": randn(rng, s["n"])}


def _add_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"z": a["x"] + a["y"]}


def _add_once(env: Env, s: Sizes, a: Arrays) -> Arrays:
    z = a["z"].copy()
    env.kernel(entry("add", [s["tile"]]))(part(z, (s["tile"],)), a["x"], a["y"])
    return {"z": z}


def _async_add(env: Env, s: Sizes, a: Arrays) -> Arrays:
    # `add(..).then(add)`: two launches queued on one stream, one synchronization at the end.
    stream = env.stream()
    x, y, z = env.dev(a["x"]), env.dev(a["y"]), env.dev(a["z"])
    kernel = env.kernel(entry("add", [s["tile"]]))
    for _ in range(2):
        kernel(part(z, (s["tile"],)), x, y, stream=stream)
    env.sync(stream)
    return {"z": host(z)}


def _foreign_add(env: Env, s: Sizes, a: Arrays) -> Arrays:
    # Memory another framework owns, passed without a copy: torch (or CuPy) CUDA tensors on the GPU.
    if not env.gpu:
        return _add_once(env, s, a)
    x, y, z = (_foreign(a[k]) for k in ("x", "y", "z"))
    env.kernel(entry("add", [s["tile"]]))(part(z, (s["tile"],)), x, y)
    env.sync()
    return {"z": _foreign_host(z)}


def _foreign(array: np.ndarray) -> Any:
    try:
        import torch

        return torch.from_numpy(array).cuda()
    except ImportError:
        import cupy

        return cupy.asarray(array)


def _foreign_host(array: Any) -> np.ndarray:
    return array.cpu().numpy() if hasattr(array, "cpu") else array.get()


def _add_case(example: str, run: Callable[[Env, Sizes, Arrays], Arrays], n: int, tile: int, features: str,
              note: str = "") -> Case:
    return Case(example, f"add<S=[{tile}]>", {"n": n, "tile": tile}, lambda s: instance("add", [s["tile"]]),
                _add_inputs, run, _add_reference, host_features=features, cache_check=example.startswith("jit_"),
                note=note)


# --- saxpy (saxpy, async_saxpy, async_and_then_example) ----------------------------------------------------


def _saxpy_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    out = {}
    for t in s["types"]:
        out[f"x_{t}"] = randn(rng, s["shape"], t)
        out[f"y_{t}"] = randn(rng, s["shape"], t)
    return out


def _saxpy_launches(env: Env, s: Sizes, a: Arrays) -> Arrays:
    out = {}
    stream = env.stream() if s["launches"] > 1 else None
    for t in s["types"]:
        name = entry("saxpy", s["tile"], *([t] if s["typed"] else []))
        x, y = env.dev(a[f"x_{t}"]), env.dev(a[f"y_{t}"])
        alpha = dtype(t).type(s["a"])
        for _ in range(s["launches"]):
            env.kernel(name)(part(y, tuple(s["tile"])), alpha, x, stream=stream)
        env.sync(stream)
        out[f"y_{t}"] = host(y)
    return out


def _saxpy_reference(s: Sizes, a: Arrays) -> Arrays:
    out = {}
    for t in s["types"]:
        y = a[f"y_{t}"].copy()
        for _ in range(s["launches"]):
            y = (dtype(t).type(s["a"]) * a[f"x_{t}"] + y).astype(dtype(t))
        out[f"y_{t}"] = y
    return out


def _saxpy_instances(s: Sizes) -> dict[str, list[list[str]]]:
    return {"saxpy": [[spell(s["tile"])] + ([t] if s["typed"] else []) for t in s["types"]]}


_FMA = Tol(1e-6, 1e-6, "a * x + y may be one fused multiply-add on the GPU, two roundings in numpy")
_FMA64 = Tol(1e-14, 1e-14, _FMA.why)


def _saxpy_case(example: str, tile: list[int], types: list[str], launches: int, typed: bool,
                features: str) -> Case:
    s = {"shape": (4, 8), "tile": tile, "types": types, "a": 2.0, "launches": launches, "typed": typed}
    kernels = ", ".join(f"saxpy<S={spell(tile)}{', T=' + t if typed else ''}>" for t in types)
    tol = {f"y_{t}": _FMA64 if t == "f64" else _FMA for t in types}
    return Case(example, kernels, s, _saxpy_instances, _saxpy_inputs, _saxpy_launches, _saxpy_reference, tol,
                host_features=features)


# --- softmax, rms_norm, dropout -----------------------------------------------------------------------------


def _softmax_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    y = a["y"].copy()
    env.kernel(entry("softmax", s["bm"], s["n"]))(part(y, (s["bm"], s["n"])), a["x"])
    return {"y": y, "row sums": y.astype(np.float64).sum(axis=1)}


def _softmax_reference(s: Sizes, a: Arrays) -> Arrays:
    x = a["x"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"y": e / e.sum(axis=1, keepdims=True), "row sums": np.ones(s["m"])}


def rms_norm_reference(x: np.ndarray, w: np.ndarray, eps: float) -> np.ndarray:
    """x * w / sqrt(mean(x^2) + eps) per row, in float64."""
    x64 = x.astype(np.float64)
    return x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps) * w.astype(np.float64)


def _rms_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    return {"x": randn(rng, (s["m"], s["n"])), "w": randn(rng, s["n"]), "out": randn(rng, (s["m"], s["n"]))}


def _rms_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    out = a["out"].copy()
    env.kernel(entry("rms_norm", s["n"], s["block"]))(a["x"], a["w"], part(out, (1, s["n"])), np.float32(s["eps"]))
    return {"out": out}


def _rms_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"out": rms_norm_reference(a["x"], a["w"], s["eps"])}


NORM_TOL = Tol(1e-5, 1e-5, "f32 sums in another order; sqrt rounded toward -inf as the kernel asks")


def _dropout_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    return {"x": randn(rng, s["m"]), "x_keep": uniform(rng, s["m"], 0.0, 1.0), "out": randn(rng, s["m"])}


def _dropout_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    out = a["out"].copy()
    env.kernel(entry("dropout", [s["bm"]]))(np.float32(s["p"]), a["x"], a["x_keep"], part(out, (s["bm"],)))
    return {"out": out}


def _dropout_reference(s: Sizes, a: Arrays) -> Arrays:
    # The kernel keeps x_keep itself (not x) where it exceeds p, and rescales by 1 / (1 - p).
    keep = a["x_keep"]
    p = np.float32(s["p"])
    return {"out": np.where(keep > p, keep, np.float32(0)) / (np.float32(1) - p)}


# --- hello_world, scale_ptr ---------------------------------------------------------------------------------


def _hello_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    kernel = env.kernel("hello_world_kernel")

    def launch() -> None:
        kernel[s["grid"]]()
        env.sync()

    text = captured_stdout(launch)
    return {"lines": np.array([line for line in text.splitlines() if line.startswith("Hello")] or [""])}


def _hello_reference(s: Sizes, a: Arrays) -> Arrays:
    gx, gy, gz = s["grid"]
    lines = [f"Hello, I am tile <{x}, {y}, {z}> in a kernel with <{gx}, {gy}, {gz}> tiles."
             for z in range(gz) for y in range(gy) for x in range(gx)]
    return {"lines": np.array(lines)}


def _scale_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    return {"input": randn(rng, s["len"]), "out": randn(rng, s["len"])}


def _scale_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    out, inp = env.dev(a["out"]), env.dev(a["input"])
    env.kernel("scale_ptr")[s["blocks"], 1, 1](out, inp, np.float32(s["scale"]), np.int32(s["len"]))
    env.sync()
    return {"out": host(out)}


def _scale_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"out": a["input"] * np.float32(s["scale"])}


# --- interop: a tile kernel and a hand-written PTX kernel on one stream --------------------------------------

# Our own PTX (not the example's): out[i] = factor * in[i] for i < count, one element per thread.
SCALE_PTX = """.version 7.8
.target sm_80
.address_size 64
.visible .entry yard_scale(.param .u64 src, .param .u64 dst, .param .f32 factor, .param .u32 count)
{
    .reg .pred %past;
    .reg .b32 %i, %n, %lane, %blk, %width;
    .reg .b64 %from, %to, %offset;
    .reg .f32 %v, %k;
    ld.param.u64 %from, [src];
    ld.param.u64 %to, [dst];
    ld.param.f32 %k, [factor];
    ld.param.u32 %n, [count];
    mov.u32 %lane, %tid.x;
    mov.u32 %blk, %ctaid.x;
    mov.u32 %width, %ntid.x;
    mad.lo.u32 %i, %blk, %width, %lane;
    setp.ge.u32 %past, %i, %n;
    @%past ret;
    mul.wide.u32 %offset, %i, 4;
    add.u64 %from, %from, %offset;
    add.u64 %to, %to, %offset;
    ld.global.f32 %v, [%from];
    mul.rn.f32 %v, %v, %k;
    st.global.f32 [%to], %v;
    ret;
}
"""


def launch_ptx(ptx: str, name: str, blocks: int, threads: int, stream: Any, args: list[tuple[Any, Any]]) -> None:
    """Load a PTX module with the CUDA driver and enqueue one of its kernels on an oxide stream: a kernel that
    oxide did not compile, in the same context and stream as oxide's launches."""
    from cuda.bindings import driver

    def ok(result: tuple[Any, ...], what: str) -> Any:
        if result[0] != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"{what} failed: {result[0]!r}")
        return result[1] if len(result) > 1 else None

    module = ok(driver.cuModuleLoadData(ptx.encode() + b"\0"), "cuModuleLoadData")
    function = ok(driver.cuModuleGetFunction(module, name.encode()), "cuModuleGetFunction")
    values, types = tuple(v for v, _ in args), tuple(t for _, t in args)
    ok(driver.cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, stream.handle, (values, types), 0),
       "cuLaunchKernel")


def _interop_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    n, scale = s["n"], np.float32(s["scale"])
    if not env.gpu:  # the emulator runs oxide's kernels only: the PTX step is numpy here
        z = _add_once(env, s, a)["z"]
        return {"w": z * scale}
    stream = env.stream()
    x, y, z, w = (env.dev(a[k]) for k in ("x", "y", "z", "w"))
    env.kernel(entry("add", [s["tile"]]))(part(z, (s["tile"],)), x, y, stream=stream)
    launch_ptx(SCALE_PTX, "yard_scale", -(-n // 256), 256, stream,
               [(z.ptr, ctypes.c_void_p), (w.ptr, ctypes.c_void_p), (float(scale), ctypes.c_float),
                (n, ctypes.c_uint)])
    env.sync(stream)
    return {"w": host(w)}


def _interop_reference(s: Sizes, a: Arrays) -> Arrays:
    return {"w": (a["x"] + a["y"]) * np.float32(s["scale"])}


def _blackwell(example: str, kernels: str, generics: list[int]) -> Case:
    return Case(example, kernels, {"generics": generics}, lambda s: instance("linear_tile", *s["generics"]),
                chip="sm_90a", refusal="sm_100",
                note="Blackwell-only block-scaled formats: out of scope; oxide must refuse them with a located "
                     "error that says they need sm_100")


def cases() -> list[Case]:
    """The element-wise, norm, print and Blackwell examples (see the module docstring for the others)."""
    stream = "two launches queued on one oxide Stream (`kernel(..., stream=s)`), one `s.synchronize()`"
    return [
        _add_case("async_add", _async_add, 32, 2, stream),
        _add_case("cudarc_interop", _foreign_add, 1024, 128,
                  "foreign memory: torch (else CuPy) CUDA tensors passed as the kernel's arrays, no copy"),
        _add_case("jit_custom_store", _add_once, 1024, 128,
                  "a custom JIT store: oxide's artifact cache in a directory the caller chooses (OXIDE_CACHE_DIR); "
                  "the compile stage checks a second build is served from it",
                  "oxide has no pluggable store backend; the cache directory is its one knob"),
        _add_case("jit_disk_cache", _add_once, 1024, 128,
                  "the on-disk kernel cache: oxide's artifact cache; the compile stage checks a second build is "
                  "served from it without compiling"),
        Case("interop", "add<S=[4]> + a hand-written PTX kernel", {"n": 32, "tile": 4, "scale": 3.0},
             lambda s: instance("add", [s["tile"]]),
             lambda rng, s: {**_add_inputs(rng, s), "w": randn(rng, s["n"])}, _interop_run, _interop_reference,
             host_features="our own PTX scale kernel loaded with the CUDA driver and launched on the oxide Stream "
                           "after the tile kernel (on the emulator the scale step is numpy)"),
        _saxpy_case("saxpy", [2, 2], ["f32"], 1, False, ""),
        _saxpy_case("async_saxpy", [2, 4], ["f32", "f64"], 1, True, "synchronous launches (the async chain is "
                    "one launch per type)"),
        _saxpy_case("async_and_then_example", [2, 4], ["f32"], 3, False,
                    "compile before the inputs exist (the build stage); three launches chained on one Stream"),
        Case("softmax", "softmax<BM=2, BN=8>", {"m": 4, "n": 8, "bm": 2},
             lambda s: instance("softmax", s["bm"], s["n"]),
             lambda rng, s: {"x": randn(rng, (s["m"], s["n"]), scale=3.0), "y": randn(rng, (s["m"], s["n"]))},
             _softmax_run, _softmax_reference, {"y": Tol(1e-5, 1e-7, "exp in f32"),
                                                "row sums": Tol(0, 1e-5, "the host checks each row sums to 1")}),
        Case("rms_norm", "rms_norm<N=8, BLOCK_SIZE=2>", {"m": 4, "n": 8, "block": 2, "eps": 1e-8},
             lambda s: instance("rms_norm", s["n"], s["block"]), _rms_inputs, _rms_run, _rms_reference,
             {"out": NORM_TOL}, note="the host code only prints the rows; checked against numpy"),
        Case("dropout", "dropout<S=[4]>", {"m": 16, "bm": 4, "p": 0.4},
             lambda s: instance("dropout", [s["bm"]]), _dropout_inputs, _dropout_run, _dropout_reference,
             {"out": Tol(1e-6, 0, "division in f32")},
             note="the host code draws x_keep with the library's uniform generator and prints the result; "
                  "here x_keep is seeded numpy uniform data"),
        Case("hello_world", "hello_world_kernel", {"grid": (1, 1, 1)}, lambda s: {},
             lambda rng, s: {}, _hello_run, _hello_reference,
             note="checks the line `cuda_tile_print!` prints (device printf on the GPU, captured from stdout)"),
        Case("scale_ptr", "scale_ptr (unsafe, raw pointers)", {"len": 1024, "scale": 3.0, "blocks": 4},
             lambda s: {}, _scale_inputs, _scale_run, _scale_reference, {"out": EXACT},
             host_features="raw device pointers: device arrays passed for `*mut f32`, grid (4, 1, 1) stated"),
        _blackwell("mxfp8", "linear_tile<BM=16, BN=16, BK=64, BK_SCALES=2>", [16, 16, 64, 2]),
        _blackwell("nvfp4", "linear_tile<BM=16, BN=16, BK=64, BK_PACKED=32, BK_SCALES=4>", [16, 16, 64, 32, 4]),
    ]
