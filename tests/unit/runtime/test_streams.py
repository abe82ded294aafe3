"""Stream-ordered launches against the fake driver: other libraries' streams taken by their handle, a stream of
another context refused, and the arguments of queued work held until the stream's work is done."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import numpy as np
import pytest
from cuda.bindings.driver import CUstream

import oxide.tile
from oxide.runtime import Event, KernelArgumentError, LaunchContractError, Stream, inflight
from oxide.runtime.module import load
from oxide.runtime.stream import foreign_handle
from tests.unit.runtime.conftest import FakeGpuArray
from tests.unit.runtime.tile_artifacts import write


class TorchLikeStream:
    """What torch.cuda.Stream offers: the handle as `cuda_stream`."""

    def __init__(self, handle: int):
        self.cuda_stream = handle


class CupyLikeStream:
    """What cupy.cuda.Stream offers: the handle as `ptr`."""

    def __init__(self, handle: int):
        self.ptr = handle


class CoreLikeStream:
    """cuda.core's stream protocol."""

    def __init__(self, handle: int):
        self.handle = handle

    def __cuda_stream__(self) -> tuple[int, int]:
        return 0, self.handle


def test_stream_objects_of_other_libraries_give_their_raw_handle() -> None:
    assert foreign_handle(7) == 7
    assert foreign_handle(TorchLikeStream(0x70)) == 0x70
    assert foreign_handle(CupyLikeStream(0x80)) == 0x80
    assert foreign_handle(CoreLikeStream(0x90)) == 0x90
    assert foreign_handle(CUstream(0xA0)) == 0xA0
    for wrong in (True, "stream", 1.5, object()):
        with pytest.raises(KernelArgumentError, match="`stream` must be an oxide Stream, a torch, CuPy or cuda.core"):
            foreign_handle(wrong)


def test_oxide_streams_export_their_handle(fake: Any) -> None:
    stream = Stream()
    assert stream.__cuda_stream__() == (0, stream.ptr) and stream.ptr == int(stream.handle)
    assert foreign_handle(stream) == stream.ptr  # an oxide stream passes where a foreign one does
    borrowed = Stream.external(TorchLikeStream(0x70))
    assert borrowed.ptr == 0x70 and not borrowed.owned
    borrowed.close()  # waits, but leaves the stream to its owner
    stream.close()
    assert stream.handle is None and "external" in repr(borrowed)


def test_a_foreign_stream_reaches_the_driver_and_holds_the_arguments(fake: Any, artifact_dir: Any) -> None:
    module = load(artifact_dir / "saxpy", target="gpu")
    x, out = module.to_device(np.ones(4, np.float32)), module.zeros(4, np.float32)
    torch_stream = TorchLikeStream(0x7000)
    module.saxpy[1, 32, torch_stream](2.0, x, x, out)
    module.saxpy(2.0, x, x, out, config=module.saxpy.prepare(_config()).config, stream=CupyLikeStream(0x7000))
    assert [launch["stream"] for launch in fake.launches] == [0x7000, 0x7000]
    ledger = inflight.ledger(0x7000, module.device)
    assert ledger.held == 2  # one ledger per raw handle, whichever object named the stream
    module.synchronize()  # a context-wide wait completes every stream's work
    assert ledger.held == 0


def test_a_stream_of_another_context_is_refused(fake: Any, artifact_dir: Any) -> None:
    module = load(artifact_dir / "saxpy", target="gpu")
    x, out = module.to_device(np.ones(4, np.float32)), module.zeros(4, np.float32)
    fake.stream_contexts[0x7100] = 0xD0
    with pytest.raises(LaunchContractError, match="`stream` expects a stream of device 0's primary context"):
        module.saxpy[1, 32, TorchLikeStream(0x7100)](2.0, x, x, out)
    assert fake.launches == []


def test_a_dropped_buffer_lives_until_the_stream_is_synchronized(fake: Any, artifact_dir: Any) -> None:
    module = load(artifact_dir / "saxpy", target="gpu")
    stream = module.stream()
    x, out = module.to_device(np.ones(4, np.float32)), module.zeros(4, np.float32)
    module.saxpy[1, 32, stream](2.0, x, x, out)  # the fast path
    alive = weakref.ref(x)
    address = x.ptr
    del x
    gc.collect()
    assert alive() is not None and address in fake.memory  # the queued kernel still reads it
    stream.synchronize()
    gc.collect()
    assert alive() is None and address not in fake.memory


def test_completed_batches_are_released_without_waiting(fake: Any, artifact_dir: Any) -> None:
    module = load(artifact_dir / "saxpy", target="gpu")
    stream = module.stream()
    x, out = module.to_device(np.ones(4, np.float32)), module.zeros(4, np.float32)
    fake.pending = True  # the GPU is behind: recorded events have not happened
    for _ in range(2 * inflight.BATCH):
        module.saxpy[1, 32, stream](2.0, x, x, out)
    assert stream.inflight.held == 2 * inflight.BATCH and len(stream.inflight.batches) == 2
    fake.pending = False  # the GPU caught up: the next batch's close releases the finished ones
    for _ in range(inflight.BATCH):
        module.saxpy[1, 32, stream](2.0, x, x, out)
    assert stream.inflight.held == inflight.BATCH
    assert len(fake.events) == 2 and sum(len(streams) for streams in fake.events.values()) == 3  # events reused
    stream.close()  # waits, then destroys the stream and the ledger's events
    assert not fake.events and not inflight._LEDGERS


def test_tile_launches_on_a_stream_hold_their_arguments(fake: Any, tmp_path: Any) -> None:
    mod = load(write(tmp_path, "add"), target="gpu")
    stream = mod.stream()
    z, x, y = (mod.to_device(np.zeros(256, np.float32)) for _ in range(3))
    mod.add[2, stream](oxide.tile.partition(z, (128,)), x, y, 1.0)
    launch = mod.add.prepare(oxide.tile.partition(z, (128,)), x, y, 2.0, stream=CoreLikeStream(0x7200))
    launch()
    launch()
    assert [entry["stream"] for entry in fake.launches] == [stream.handle, 0x7200, 0x7200]
    assert stream.inflight.held == 1 and stream.last_kernel == "add"
    assert inflight.ledger(0x7200, mod.device).held == 2
    default = mod.add.prepare(oxide.tile.partition(z, (128,)), x, y, 2.0)
    default()
    assert fake.launches[-1]["stream"] == 0  # the legacy default stream, held there too
    assert inflight.ledger(0, mod.device).held == 1


def test_events_record_on_any_stream(fake: Any) -> None:
    event = Event()
    assert event.record(TorchLikeStream(0x7300)) is event
    assert fake.events[event.handle] == [0x7300]


class TensorLike(FakeGpuArray):
    """A CuPy array or torch tensor as the runtime sees it: the interface, a shape and a dtype."""

    def __init__(self, ptr: int, n: int = 128):
        super().__init__(ptr, n)
        self.shape, self.dtype = (n,), np.dtype(np.float32)


def _config() -> Any:
    from oxide.runtime import LaunchConfig1D

    return LaunchConfig1D(1, 32)


def test_foreign_gpu_arrays_on_a_foreign_stream(fake: Any, tmp_path: Any) -> None:
    # A torch/CuPy tensor is taken zero-copy by its address; the launch holds the object itself.
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x, y = (TensorLike(base) for base in (0x10000, 0x20000, 0x30000))
    mod.add[1, TorchLikeStream(0x7400)](oxide.tile.partition(z, (128,)), x, y, 1.0)
    (launch,) = fake.launches
    assert launch["params"][0] == 0x10000 and launch["stream"] == 0x7400
    ledger = inflight.ledger(0x7400, mod.device)
    assert ledger.held == 1 and ledger.current[0][1] is x
