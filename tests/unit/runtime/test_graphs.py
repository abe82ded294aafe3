"""CUDA graphs and device copies against the fake driver: launches captured (not run) and replayed with the
same parameters, the graph holding its buffers, device-to-device copies captured too, and the typed errors of
everything a capture cannot take."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import oxide.tile
from oxide.runtime import (Graph, GraphCaptureError, GraphError, HostArrayError, KernelArgumentError, Stream, copy,
                           inflight)
from oxide.runtime.module import load
from tests.unit.runtime.tile_artifacts import write

COOPERATIVE = """
use cuda_device::{cooperative_launch, grid, kernel, thread, DisjointSlice};

#[kernel]
#[cooperative_launch]
pub fn two_phase(mut out: DisjointSlice<u32>, x: u32) {
    grid::sync();
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = x; }
}
"""


def test_captured_launches_run_only_when_the_graph_is_replayed(fake: Any, artifact_dir: Path, tmp_path: Path) -> None:
    simt = load(artifact_dir / "saxpy", target="gpu")
    tile = load(write(tmp_path, "add"), target="gpu")
    stream = simt.stream()
    x, out = simt.to_device(np.ones(128, np.float32)), simt.zeros(128, np.float32)
    z = simt.zeros(128, np.float32)
    with Graph.capture(stream) as graph:
        simt.saxpy[1, 128, stream](2.0, x, x, out)
        tile.add[1, stream](oxide.tile.partition(z, (128,)), out, x, 0.5)
        assert fake.launches == []  # nothing runs while capturing
    assert graph.nodes == 2 and "2 nodes" in repr(graph)
    graph.launch()
    graph.launch(stream)
    replayed = [(launch["entry"], launch["stream"], launch["params"][0]) for launch in fake.launches]
    assert replayed == [("saxpy", stream.handle, 2.0), ("add", stream.handle, z.ptr)] * 2
    assert all(launch["replayed"] for launch in fake.launches)
    assert stream.inflight.held == 2 and stream.inflight.capture is None  # each replay holds the graph


def test_the_graph_holds_its_buffers_until_closed(fake: Any, artifact_dir: Path) -> None:
    simt = load(artifact_dir / "saxpy", target="gpu")
    stream = simt.stream()
    with Graph.capture(stream) as graph:
        x = simt.to_device(np.ones(4, np.float32))
        simt.saxpy[1, 32, stream](2.0, x, x, simt.zeros(4, np.float32))
    alive = weakref.ref(x)
    del x
    stream.synchronize()
    gc.collect()
    assert alive() is not None and len(graph.references) == 1  # replays read it
    graph.launch()
    graph.close()
    gc.collect()
    assert alive() is not None  # the replay in flight still holds it
    stream.synchronize()
    gc.collect()
    assert alive() is None and len(fake.destroyed) == 2
    with pytest.raises(GraphError, match="holds nothing to launch: it was closed"):
        graph.launch()


def test_device_copies_are_captured_and_feed_new_inputs(fake: Any, artifact_dir: Path) -> None:
    simt = load(artifact_dir / "saxpy", target="gpu")
    stream = simt.stream()
    staged, x = simt.to_device(np.zeros(4, np.float32)), simt.to_device(np.zeros(4, np.float32))
    with Graph.capture(stream) as graph:
        copy(x, staged, stream)  # as cutile-rs's graph.update(memcpy(input, embedding))
    staged.copy_from(np.arange(4, dtype=np.float32))
    assert not x.get().any()
    graph.launch()
    np.testing.assert_array_equal(x.get(), np.arange(4, dtype=np.float32))


def test_copies_check_their_arrays(fake: Any) -> None:
    a, b = Stream(), None
    del b
    from oxide.runtime import to_device

    x, y = to_device(np.arange(8, dtype=np.float32)), to_device(np.zeros(8, np.float32))
    copy(y, x)
    np.testing.assert_array_equal(y.get(), np.arange(8))
    copy(y[0:4], x[4:8], a)
    assert y.get()[:4].tolist() == [4, 5, 6, 7] and a.inflight.held == 1
    with pytest.raises(HostArrayError, match="copy: the source is a numpy array; copy host data with"):
        copy(y, np.zeros(8, np.float32))
    with pytest.raises(KernelArgumentError, match=r"copy: the destination holds 16 bytes \(\(4,\) float32\), the "
                                                  r"source 32"):
        copy(y[0:4], x)
    with pytest.raises(KernelArgumentError, match="the destination overlaps the source"):
        copy(x[0:4], x[2:6])
    with pytest.raises(KernelArgumentError, match="copy: the source is not a GPU array"):
        copy(y, [1.0] * 8)


def test_a_synchronous_launch_inside_a_capture_is_refused(fake: Any, artifact_dir: Path, tmp_path: Path) -> None:
    simt = load(artifact_dir / "saxpy", target="gpu")
    tile = load(write(tmp_path, "add"), target="gpu")
    stream = simt.stream()
    x, out = simt.to_device(np.ones(128, np.float32)), simt.zeros(128, np.float32)
    with pytest.raises(GraphError, match="kernel `saxpy`: a synchronous launch inside a graph capture"):
        with Graph.capture(stream):
            simt.saxpy[1, 128](2.0, x, x, out)  # the fast path defers to the general one, which refuses
    assert stream.handle not in fake.capturing and not inflight.capturing_here()  # the capture was ended
    with pytest.raises(GraphError, match="kernel `add`: a synchronous launch inside a graph capture"):
        with Graph.capture(stream):
            tile.add(oxide.tile.partition(out, (128,)), x, x, 1.0)
    prepared = tile.add.prepare(oxide.tile.partition(out, (128,)), x, x, 1.0)
    with pytest.raises(GraphError, match="prepared without `stream=`, so it would run on the default stream"):
        with Graph.capture(stream):
            prepared()
    with pytest.raises(GraphError, match="a synchronous copy inside a graph capture"):
        with Graph.capture(stream):
            copy(out, x)
    assert fake.launches == []


def test_a_launch_the_driver_will_not_capture_is_a_typed_error(fake: Any, tmp_path: Path) -> None:
    import oxide

    (tmp_path / "coop.rs").write_text(COOPERATIVE)
    oxide.build(tmp_path / "coop.rs", out_dir=tmp_path / "coop", chips=["sm_90"])
    module = load(tmp_path / "coop", target="gpu")
    stream = module.stream()
    out = module.zeros(64, np.uint32)
    fake.refuse_extended = True
    with pytest.raises(GraphCaptureError, match=r"kernel `two_phase`: the launch failed with "
                                                r"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED") as info:
        with Graph.capture(stream):
            module.two_phase.unchecked[1, 64, stream](out, 3)
    assert info.value.kernel == "two_phase" and info.value.code == "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"
    module.two_phase.unchecked[1, 64, stream](out, 3)  # the stream works again after the failed capture
    assert fake.launches[-1]["entry"] == "two_phase"


def test_an_invalidated_capture_is_reported_when_it_ends(fake: Any) -> None:
    stream = Stream()

    def invalidate(*args: Any) -> tuple:
        fake.invalidated.add(stream.handle)
        return (fake.CUresult.CUDA_SUCCESS,)

    fake.cuStreamWaitEvent = invalidate
    with pytest.raises(GraphCaptureError, match="ending the graph capture failed with "
                                                "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"):
        with Graph.capture(stream):
            stream.wait(stream.record())


def test_graphs_are_refused_where_they_cannot_work(fake: Any) -> None:
    with pytest.raises(GraphError, match="needs a GPU stream .* the emulator has no streams"):
        Graph.capture(None)
    with pytest.raises(GraphError, match="the legacy default stream cannot be captured"):
        Graph.capture(0)
    with pytest.raises(GraphError, match="capture mode must be one of thread_local, global, relaxed"):
        Graph.capture(Stream(), mode="eager")
    stream = Stream()
    graph = Graph.capture(stream)
    with pytest.raises(GraphError, match="holds nothing to launch"):
        graph.launch()
    with graph:
        with pytest.raises(GraphError, match="already being captured"):
            with Graph.capture(stream):
                pass
    with pytest.raises(GraphError, match="captured already"):
        with graph:
            pass
