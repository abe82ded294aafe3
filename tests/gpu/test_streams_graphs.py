"""The host side of asynchronous work on the GPU: launches ordered across two streams by events, arguments that
outlive a queued launch after Python dropped them, CUDA graphs replaying captured launches (SIMT and tile) with
the eager results, and torch/CuPy interop (their tensors and streams in, oxide's buffers and streams out).

SIMT kernels are built like tests/gpu/test_runtime.py's (the compiler, or a carried artifact cache); the tile
kernel is the hand-written fixture of tests/gpu/test_tile_runtime.py. Without a GPU these tests skip.
"""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest

import oxide.tile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "rust"
TILE_ADD = ROOT / "tests" / "fixtures" / "tile_runtime" / "add.oxide.json"
RNG = np.random.default_rng(2029)
N = 1 << 22  # large enough that a missing dependency between streams would show


@pytest.fixture(scope="module")
def rt(cuda):
    import oxide.runtime

    return oxide.runtime


def _simt(name: str, **kw):
    import oxide

    return oxide.load(EXAMPLES / f"{name}.rs", target="gpu", **kw)


def _tile():
    from oxide.runtime.module import load

    return load(TILE_ADD, target="gpu")


def test_two_streams_ordered_by_an_event(rt):
    module = _simt("saxpy")
    x, y = RNG.standard_normal(N, dtype=np.float32), RNG.standard_normal(N, dtype=np.float32)
    dx, dy = module.to_device(x), module.to_device(y)
    t, out = module.zeros(N, np.float32), module.zeros(N, np.float32)
    first, second = module.stream(), module.stream()
    for _ in range(20):  # a long first stream: without the wait, the second would read a stale t
        module.saxpy[N // 256, 256, first](2.0, dx, dy, t)
    ready = first.record()
    second.wait(ready)
    module.saxpy[N // 256, 256, second](3.0, t, dy, out)
    second.synchronize()
    expected_t = (np.float32(2.0) * x + y).astype(np.float32)
    np.testing.assert_allclose(out.get(), np.float32(3.0) * expected_t + y, rtol=1e-5, atol=1e-5)
    first.close()
    second.close()


def test_a_dropped_argument_is_not_reused_while_the_launch_runs(rt):
    module = _simt("saxpy")
    stream = module.stream()
    out = module.zeros(N, np.float32)
    for _ in range(10):
        module.saxpy[N // 256, 256, stream](1.0, module.to_device(np.ones(N, np.float32)),
                                            module.to_device(np.ones(N, np.float32)), out)
    gc.collect()  # the inputs have no Python owner now; the stream's ledger holds them
    clobber = [module.to_device(np.full(N, 100.0, np.float32)) for _ in range(4)]  # would take freed memory
    stream.synchronize()
    np.testing.assert_array_equal(out.get(), np.full(N, 2.0, np.float32))
    assert stream.inflight.held == 0 and len(clobber) == 4


def test_graph_replay_matches_eager_launches(rt):
    simt, tile = _simt("saxpy"), _tile()
    n = 1 << 16
    stream = simt.stream()
    x, y, staged = (simt.zeros(n, np.float32) for _ in range(3))
    t, z = simt.zeros(n, np.float32), simt.zeros(n, np.float32)

    def forward(s):
        rt.copy(x, staged, s)
        simt.saxpy[n // 256, 256, s](2.0, x, y, t)
        tile.add[n // 128, s](oxide.tile.partition(z, (128,)), t, x, 0.5)

    with rt.Graph.capture(stream) as graph:
        forward(stream)
    assert graph.nodes == 3
    y.copy_from(RNG.standard_normal(n, dtype=np.float32))
    for step in range(5):  # new inputs through the same buffer, as cutile-rs's graph.update(memcpy(..))
        inputs = RNG.standard_normal(n, dtype=np.float32)
        staged.copy_from(inputs)
        graph.launch(stream)
        stream.synchronize()
        replayed = z.get()
        forward(stream)  # the same launches, eagerly
        stream.synchronize()
        np.testing.assert_array_equal(replayed, z.get())
        expected = (np.float32(2.0) * inputs + y.get()) + inputs * np.float32(0.5)
        np.testing.assert_allclose(replayed, expected, rtol=1e-5, atol=1e-5)
    graph.close()


def test_a_cooperative_launch_is_captured_or_refused_with_a_typed_error(rt):
    module = _simt("grid_sync_reduce", chips=["sm_90a"])
    x = module.to_device(np.ones(1 << 16, np.float32))
    partials, out = module.zeros(64, np.float32), module.zeros(1, np.float32)
    stream = module.stream()
    try:
        with rt.Graph.capture(stream) as graph:
            module.grid_sum[64, 256, stream](x, partials, out)
    except rt.GraphCaptureError as error:  # a driver that will not capture it says so, naming the kernel
        assert error.kernel == "grid_sum"
        module.grid_sum[64, 256, stream](x, partials, out)  # the stream is usable again
    else:
        graph.launch(stream)
    stream.synchronize()
    assert out.get()[0] == pytest.approx(1 << 16)


def test_torch_tensors_and_streams(rt):
    torch = pytest.importorskip("torch")
    module, tile = _simt("saxpy"), _tile()
    n = 1 << 20
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x = torch.arange(n, dtype=torch.float32, device="cuda")
        y, out = torch.ones(n, device="cuda"), torch.empty(n, device="cuda")
    module.saxpy[n // 256, 256, side](2.0, x, y, out)  # on torch's stream, ordered after its fills
    z = torch.empty(n, device="cuda")
    tile.add[n // 128, side](oxide.tile.partition(z, (128,)), out, y, 1.0)
    side.synchronize()
    expected = 2 * torch.arange(n, dtype=torch.float32, device="cuda") + 2
    assert torch.equal(z, expected)
    buf = module.to_device(np.arange(8, dtype=np.float32))
    for view in (torch.from_dlpack(buf), torch.as_tensor(buf, device="cuda")):
        assert view.data_ptr() == buf.ptr  # zero-copy both ways
        view.mul_(2)
        torch.cuda.synchronize()
    np.testing.assert_array_equal(buf.get(), 4 * np.arange(8, dtype=np.float32))
    ours = module.stream()
    external = torch.cuda.ExternalStream(ours.ptr)
    with torch.cuda.stream(external):  # oxide's stream, shared with torch
        z.fill_(0)
    ours.synchronize()
    assert not bool(z.any())
    with rt.Graph.capture(side) as graph:  # a graph captured on torch's stream
        module.saxpy[n // 256, 256, side](2.0, x, y, out)
    out.zero_()
    torch.cuda.synchronize()
    graph.launch(side)
    side.synchronize()
    assert torch.equal(out, 2 * x + 1)


def test_cupy_arrays_and_streams(rt):
    cp = pytest.importorskip("cupy")
    module = _simt("saxpy")
    n = 1 << 20
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        x, y, out = cp.arange(n, dtype=cp.float32), cp.ones(n, dtype=cp.float32), cp.empty(n, dtype=cp.float32)
    module.saxpy[n // 256, 256, stream](2.0, x, y, out)
    stream.synchronize()
    assert bool((out == 2 * x + 1).all())
    buf = module.to_device(np.arange(8, dtype=np.float32))
    for view in (cp.from_dlpack(buf), cp.asarray(buf)):
        assert view.data.ptr == buf.ptr
    ours = module.stream()
    with cp.cuda.ExternalStream(ours.ptr):
        out.fill(0)
    ours.synchronize()
    assert not bool(out.any())
