"""The multi-kernel examples of cutile-rs (cuda_graphs, cuda_graphs_deviceop, async_mlp, autotune) as
cutile_run.py cases; see cutile_cases.py for what a case is.

The two graph examples run one forward pass of a small transformer-like stack (per layer: rms_norm, two
matvecs, a residual add) eagerly on one oxide Stream, then capture the same launches into a CUDA graph and
replay it through `oxide.runtime.Graph`; both results must match numpy. On the emulator,
where launches complete at once, the eager pass is the whole run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cutile_cases import (NORM_TOL, Arrays, Case, Env, Sizes, Tol, entry, host, instance, merge, part, randn,
                          rms_norm_reference)


class DeviceView:
    """Another shape of a device array's memory (cutile-rs's `Tensor::view`), passed through the CUDA array
    interface; it keeps the array it views alive."""

    def __init__(self, owner: Any, shape: tuple[int, ...]):
        self.owner = owner
        self.__cuda_array_interface__ = {**owner.__cuda_array_interface__, "shape": shape, "strides": None}


def view(env: Env, array: Any, shape: tuple[int, ...]) -> Any:
    return DeviceView(array, shape) if env.gpu else array.reshape(shape)


def copy(env: Env, dst: Any, src: Any, stream: Any) -> None:
    """dst[...] = src, stream-ordered on the GPU (a memcpy node when captured)."""
    if not env.gpu:
        np.copyto(dst, src)
        return
    from cuda.bindings import driver

    (err,) = driver.cuMemcpyDtoDAsync(dst.ptr, src.ptr, dst.nbytes, stream.handle)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuMemcpyDtoDAsync failed: {err!r}")


# --- cuda_graphs, cuda_graphs_deviceop -----------------------------------------------------------------------


def _model_instances(s: Sizes) -> dict[str, list[list[str]]]:
    return merge(instance("rms_norm", s["d"], s["block"]), instance("matvec", s["bn"], s["bk"], s["d"]),
                 instance("add", s["block"]))


def _model_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    # Weights scaled by 1/sqrt(d) keep every layer's values O(1) (the host code's all-ones weights grow by d^2
    # per layer); the per-layer buffers start non-zero because matvec adds to what `out` holds.
    d, out = s["d"], {"input": randn(rng, s["d"])}
    for i in range(s["layers"]):
        out[f"norm_w{i}"] = randn(rng, d)
        out[f"wq{i}"] = randn(rng, (d, d), scale=d ** -0.5)
        out[f"wo{i}"] = randn(rng, (d, d), scale=d ** -0.5)
        for buf, shape in (("norm", (1, d)), ("q", (d,)), ("o", (d,)), ("residual", (d,))):
            out[f"{buf}{i}"] = randn(rng, shape)
    return out


def _forward(env: Env, s: Sizes, w: dict[str, Any], bufs: dict[str, Any], stream: Any) -> None:
    """One forward pass, every launch on `stream`. cuda_graphs copies each layer's residual back into the input
    buffer; cuda_graphs_deviceop feeds it to the next layer directly."""
    d = s["d"]
    rms = env.kernel(entry("rms_norm", d, s["block"]))
    matvec = env.kernel(entry("matvec", s["bn"], s["bk"], d))
    add = env.kernel(entry("add", s["block"]))
    hidden = bufs["input"]
    for i in range(s["layers"]):
        norm, q, o, residual = (bufs[f"{b}{i}"] for b in ("norm", "q", "o", "residual"))
        rms(part(norm, (1, d)), view(env, hidden, (1, d)), w[f"norm_w{i}"], np.float32(s["eps"]), stream=stream)
        matvec(part(q, (s["bn"],)), norm, w[f"wq{i}"], stream=stream)
        matvec(part(o, (s["bn"],)), view(env, q, (1, d)), w[f"wo{i}"], stream=stream)
        add(part(residual, (s["block"],)), hidden, o, stream=stream)
        if s["copy_back"]:
            copy(env, hidden, residual, stream)
        else:
            hidden = residual


def _model_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    weights = {k: env.dev(v) for k, v in a.items() if k.startswith(("norm_w", "wq", "wo"))}
    state = [k for k in a if k not in weights]
    bufs = {k: env.dev(a[k]) for k in state}
    stream = env.stream()
    _forward(env, s, weights, bufs, stream)
    env.sync(stream)
    last = f"residual{s['layers'] - 1}"
    out = {"eager": host(bufs[last]).copy()}
    if env.gpu:
        replay = _graph(stream, lambda: _forward(env, s, weights, bufs, stream))
        for k in state:  # the same starting state as the eager pass, then one replay
            bufs[k].copy_from(a[k])
        replay()
        env.sync(stream)
        out["graph"] = host(bufs[last])
    return out


def _graph(stream: Any, record: Any) -> Any:
    """Capture what `record` enqueues on `stream` into a CUDA graph (oxide.runtime.Graph); returns a function
    that replays it."""
    from oxide.runtime import Graph

    with Graph.capture(stream) as graph:
        record()
    return lambda: graph.launch(stream)


def _model_reference(s: Sizes, a: Arrays) -> Arrays:
    hidden = a["input"].astype(np.float64)
    for i in range(s["layers"]):
        norm = rms_norm_reference(hidden[None, :], a[f"norm_w{i}"], s["eps"])[0]
        q = a[f"q{i}"] + a[f"wq{i}"].astype(np.float64) @ norm
        o = a[f"o{i}"] + a[f"wo{i}"].astype(np.float64) @ q
        hidden = hidden + o
    return {"eager": hidden, "graph": hidden}


def _model_case(example: str, copy_back: bool, why: str) -> Case:
    host_sizes = {"d": 2048, "layers": 22, "block": 128, "bn": 16, "bk": 16, "eps": 1e-5, "copy_back": copy_back}
    small = {**host_sizes, "d": 256, "layers": 2}
    tol = Tol(0, 2e-2 * (host_sizes["layers"] ** 0.5), "a tf32-level bound per layer (f32 mma is now f32-accurate; not tightened)")
    return Case(example, "rms_norm<D=2048, BS=128>, matvec<BN=16, BK=16, K=2048>, add<B=128>", host_sizes,
                _model_instances, _model_inputs, _model_run, _model_reference, {"eager": tol, "graph": tol},
                emulator=small, gpu_only=("graph",), smaller_why="22 layers at d = 2048 are 2 x 22 matvecs of 128 tile blocks x 128 "
                "steps: the emulator runs 2 layers at d = 256",
                host_features="every launch on one oxide Stream with device arrays; reshaped views through the CUDA "
                              "array interface; " + why + "; graph capture and replay with oxide.runtime.Graph",
                note="the host code compares the graph's output with the eager one (all-ones weights); here both "
                     "are compared with numpy")


# --- async_mlp ------------------------------------------------------------------------------------------------


def _mlp_inputs(rng: np.random.Generator, s: Sizes) -> Arrays:
    d, out = s["dim"], {"w0": randn(rng, (s["dim"], s["dim"])), "w1": randn(rng, s["dim"])}
    for i in range(s["devices"]):
        out[f"data{i}"] = randn(rng, (d, d))
        out[f"out0_{i}"] = randn(rng, (d, d))
        out[f"out1_{i}"] = randn(rng, d)
    return out


def _mlp_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    # Four pipelines (the example's four "devices" are one GPU), each on its own stream, all in flight at once.
    b, d = s["block"], s["dim"]
    gemm = env.kernel(entry("gemm", b, b, b, d))
    matvec = env.kernel(entry("matvec", b, b, d))
    relu = env.kernel(entry("relu", b))
    w0, w1 = env.dev(a["w0"]), env.dev(a["w1"])
    pipes = []
    for i in range(s["devices"]):
        stream = env.stream()
        out0, out1, data = env.dev(a[f"out0_{i}"]), env.dev(a[f"out1_{i}"]), env.dev(a[f"data{i}"])
        gemm(part(out0, (b, b)), data, w0, stream=stream)
        matvec(part(out1, (b,)), out0, w1, stream=stream)
        relu(part(out1, (b,)), stream=stream)
        pipes.append((stream, out1, data, out0))
    outs = {}
    for i, (stream, out1, *_keep) in enumerate(pipes):
        env.sync(stream)
        outs[f"out{i}"] = host(out1)
    return outs


def _mlp_reference(s: Sizes, a: Arrays) -> Arrays:
    out = {}
    for i in range(s["devices"]):
        h = a[f"out0_{i}"] + a[f"data{i}"].astype(np.float64) @ a["w0"]  # gemm adds to z's contents
        out[f"out{i}"] = np.maximum(a[f"out1_{i}"] + h @ a["w1"], 0)
    return out


def _mlp_instances(s: Sizes) -> dict[str, list[list[str]]]:
    b, d = s["block"], s["dim"]
    return merge(instance("gemm", b, b, b, d), instance("matvec", b, b, d), instance("relu", b))


# --- autotune -------------------------------------------------------------------------------------------------


def _tune_run(env: Env, s: Sizes, a: Arrays) -> Arrays:
    # Every candidate is launched once and checked; on the GPU each is then timed with events on a stream, and
    # the fastest is reported (what the example's autotuner keeps).
    out, timings = {}, []
    x, w = env.dev(a["x"]), env.dev(a["w"])
    for bs in s["configs"]:
        result = env.dev(a["out"])
        kernel = env.kernel(entry("rms_norm", s["n"], bs))
        args = (x, w, part(result, (1, s["n"])), np.float32(s["eps"]))
        kernel(*args)
        out[f"BLOCK_SIZE={bs}"] = host(result)
        if env.gpu:
            timings.append((time_launches(kernel, args, env.stream()), bs))
    if timings:
        ms, bs = min(timings)
        out["info"] = np.array([f"fastest BLOCK_SIZE={bs} ({ms * 1e3:.1f} us per launch)"])
    return out


def time_launches(kernel: Any, args: tuple[Any, ...], stream: Any, reps: int = 20) -> float:
    """Milliseconds per launch of a prepared (checked once) launch, between two events on `stream`."""
    launch = kernel.prepare(*args, stream=stream)
    launch()
    start = stream.record()
    for _ in range(reps):
        launch()
    stop = stream.record()
    stop.synchronize()
    return start.elapsed_ms(stop) / reps


def _tune_reference(s: Sizes, a: Arrays) -> Arrays:
    want = rms_norm_reference(a["x"], a["w"], s["eps"])
    return {f"BLOCK_SIZE={bs}": want for bs in s["configs"]}


def cases() -> list[Case]:
    """The graph, MLP and autotune examples."""
    mlp = {"dim": 16, "block": 4, "devices": 4}
    tune = {"m": 512, "n": 1024, "eps": 1e-8, "configs": [32, 64, 128, 256]}
    return [
        _model_case("cuda_graphs", True, "each layer's residual copied back into the input buffer (memcpy on the "
                                         "stream)"),
        _model_case("cuda_graphs_deviceop", False, "each layer reads the previous layer's residual buffer"),
        Case("async_mlp", "gemm<BM=4, BN=4, BK=4, K=16>, matvec<BM=4, BK=4, K=16>, relu<D=4>", mlp, _mlp_instances,
             _mlp_inputs, _mlp_run, _mlp_reference,
             {f"out{i}": Tol(0, 4e-3 * 16 ** 0.5 * 4, "two products in a row, a tf32-level bound (not tightened)") for i in range(4)},
             host_features="four pipelines (the example's four devices are one GPU here), each on its own oxide "
                           "Stream, all queued before the first is synchronized",
             note="the host code prints the outputs; here checked against numpy"),
        Case("autotune", "rms_norm<N=1024, BLOCK_SIZE=32|64|128|256> (4096 pruned: above N)", tune,
             lambda s: {"rms_norm": [[str(s["n"]), str(bs)] for bs in s["configs"]]},
             lambda rng, s: {"x": randn(rng, (s["m"], s["n"])), "w": randn(rng, s["n"]),
                             "out": randn(rng, (s["m"], s["n"]))},
             _tune_run, _tune_reference, {f"BLOCK_SIZE={bs}": NORM_TOL for bs in tune["configs"]},
             emulator={**tune, "m": 64}, smaller_why="64 of the 512 rows (every row is one tile block)",
             host_features="each candidate compiled as its own instance; timed with oxide Events around prepared "
                           "launches on a Stream"),
    ]
