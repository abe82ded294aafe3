"""CUDA graphs: capture a sequence of stream-ordered launches once, replay it many times at a fraction of the
launch cost.

    stream = mod.stream()
    with oxide.runtime.Graph.capture(stream) as graph:        # nothing runs while capturing
        mod.rms_norm[grid, stream](oxide.tile.partition(norm, (1, d)), x, w, 1e-5)
        mod.matvec[grid2, stream](oxide.tile.partition(q, (16,)), norm, wq)
        oxide.runtime.copy(x, q, stream)                     # device-to-device copies are captured too
    graph.launch(stream)                                      # stream-ordered replay
    stream.synchronize()

A captured launch keeps its arguments: the same buffer addresses and the same scalars at every replay. New
inputs go into the same buffers (`x.copy_from(host)`, or `oxide.runtime.copy(x, new, stream)` before the
replay), as cutile-rs's `CudaGraph::update(memcpy(..))` does. The graph holds every argument of its launches
until it is closed (and a replay in flight holds the graph), so no captured buffer is freed under it.

Inside a capture, only stream-ordered work on the capturing stream belongs: a synchronous launch (no
`stream=`) would wait for the device, which a capture forbids, and raises GraphError before it runs. An
operation the driver refuses to capture raises GraphCaptureError naming the kernel; the capture is then ended
and discarded, and the stream is usable again.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from oxide.runtime import inflight
from oxide.runtime.driver import Device, check, cuda, raise_for
from oxide.runtime.errors import GraphCaptureError, GraphError
from oxide.runtime.stream import Stream, foreign_handle

# Capture modes by name. "thread_local" (the default) forbids unsafe calls (a synchronize, a plain cuMemAlloc)
# only on the capturing thread, so other threads keep working while one captures.
MODES = ("thread_local", "global", "relaxed")

# Raw handles of the legacy default stream, which CUDA cannot capture.
_LEGACY = (0, 1)


class Graph:
    """A captured sequence of stream-ordered operations, instantiated and ready to replay."""

    def __init__(self, stream: Any, mode: str = "thread_local"):
        if stream is None:
            raise GraphError("Graph.capture needs a GPU stream (`mod.stream()`, a torch or CuPy stream); the "
                             "emulator has no streams (mod.stream() is None there) and runs launches as they come")
        if mode not in MODES:
            raise GraphError(f"capture mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.stream, self.mode = stream, mode
        self.device: Device = stream.device if type(stream) is Stream else Device(0)
        self.handle = stream.handle if type(stream) is Stream else foreign_handle(stream)
        if int(self.handle) in _LEGACY:
            raise GraphError("the legacy default stream cannot be captured: capture on a stream of your own "
                             "(`mod.stream()`, `oxide.runtime.Stream()`, torch.cuda.Stream())")
        self.references: list[Any] = []  # the captured operations' arguments, held for the graph's life
        self.graph: Any = None
        self.exec: Any = None
        self.nodes = 0
        self._ledger = inflight.ledger(self.handle, self.device)
        self._finalizer: Any = None

    @classmethod
    def capture(cls, stream: Any, mode: str = "thread_local") -> "Graph":
        """`with Graph.capture(stream) as g:` captures what is queued on `stream` inside the block."""
        return cls(stream, mode)

    def __enter__(self) -> "Graph":
        if self.graph is not None or self._ledger.capture is not None:
            raise GraphError("this stream is already being captured, or this graph was captured already")
        drv = cuda()
        self.device.activate()
        mode = getattr(drv.CUstreamCaptureMode, f"CU_STREAM_CAPTURE_MODE_{self.mode.upper()}")
        check(drv.cuStreamBeginCapture(self.handle, mode), "beginning the graph capture")
        self._ledger.capture = self.references
        inflight.CAPTURE_THREADS.append(threading.get_ident())
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        drv = cuda()
        self._ledger.capture = None
        inflight.CAPTURE_THREADS.remove(threading.get_ident())
        err, graph = drv.cuStreamEndCapture(self.handle)
        if exc is not None:  # the block failed: discard what was captured, let its error propagate
            if err == drv.CUresult.CUDA_SUCCESS and graph is not None:
                drv.cuGraphDestroy(graph)
            self.references.clear()
            return
        if err != drv.CUresult.CUDA_SUCCESS:
            raise_for(err, "ending the graph capture")
        self.graph = graph
        self.nodes = int(check(drv.cuGraphGetNodes(graph, 0), "cuGraphGetNodes")[1])
        try:
            self.exec = check(drv.cuGraphInstantiate(graph, 0), "instantiating the captured graph")
        except Exception:
            drv.cuGraphDestroy(graph)
            self.graph = None
            raise
        self._finalizer = weakref.finalize(self, _destroy, self.graph, self.exec)

    def launch(self, stream: Any = None) -> None:
        """Replay the graph on `stream` (the capturing stream if None); stream-ordered: it returns at once."""
        if self.exec is None:
            raise GraphError("this graph holds nothing to launch: it was closed, or its capture failed or has not "
                             "ended (launch it after the `with Graph.capture(...)` block)")
        stream = self.stream if stream is None else stream
        handle = stream.handle if type(stream) is Stream else foreign_handle(stream)
        ledger = inflight.ledger(handle, self.device)
        check(cuda().cuGraphLaunch(self.exec, handle), "launching the graph")
        ledger.hold((self, self.references))  # close() during the replay must not free its buffers

    def close(self) -> None:
        """Destroy the graph (a replay in flight finishes first: CUDA frees it after completion)."""
        if self._finalizer is not None:
            self._finalizer()
        self.graph = self.exec = None
        self.references = []

    def __repr__(self) -> str:
        state = "closed" if self.exec is None else f"{self.nodes} nodes"
        return f"<CUDA graph on stream 0x{int(self.handle):x}: {state}>"


def _destroy(graph: Any, executable: Any) -> None:
    try:
        cuda().cuGraphExecDestroy(executable)
        cuda().cuGraphDestroy(graph)
    except Exception:  # interpreter shutdown or a dead context: nothing left to destroy
        pass
