"""Launching tile kernels: the grid is the output partitions' grid, the block is 32 * warps threads.

    mod.add(oxide.tile.partition(z, (128,)), x, y)        # checked launch, synchronous
    mod.add[grid](oxide.tile.partition(z, (128,)), x, y)  # the same; `grid` must equal the partition grid
    mod.add[grid, stream](...)                            # stream-ordered (device arrays only)
    mod.scale(...)                                        # a generic kernel: the instance the arguments fit

Every launch binds the arguments (tile_marshal.py: partitions, element types, ranks, static dims, one grid),
checks that no output overlaps another output or any input, and that the grid fits the device; then it runs
on the GPU (cuLaunchKernel with the contract's ABI; for a kernel with launch-time variants, the entry of the
variant the binder chose) or on the emulator (one tile block at a time, at the tile level).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from oxide.runtime.config import LaunchConfig
from oxide.runtime.errors import GraphError, KernelArgumentError, LaunchContractError
from oxide.runtime.inflight import capturing_here
from oxide.runtime.launch_key import launch_key
from oxide.runtime.marshal import check_overlaps, select_instance
from oxide.runtime.signature import KernelSpec
from oxide.runtime.staging import launch_staged
from oxide.runtime.stream import Stream, resolve
from oxide.runtime.tile_marshal import TileBinder, own_variant

WARP = 32
# Checked bindings kept per kernel (launch_key.py): enough for the few tensor sets a loop relaunches on.
_BINDINGS = 16


def _grid3(grid: Any) -> tuple[int, int, int]:
    try:
        dims = (operator.index(grid),) if not isinstance(grid, tuple | list) else tuple(map(operator.index, grid))
    except TypeError:
        raise TypeError(f"a grid is 1 to 3 ints, got {grid!r}") from None
    if not 1 <= len(dims) <= 3:
        raise TypeError(f"a grid is 1 to 3 ints, got {grid!r}")
    return dims + (1,) * (3 - len(dims))  # type: ignore[return-value]


def _grid_and_stream(key: Any) -> tuple[tuple[int, int, int], Any]:
    """The grid and the stream (None) of `kernel[key]`."""
    # A second item that is not an integer is a stream (oxide's Stream, a CUstream, a raw handle object);
    # CUstream defines __index__, so "has __index__" cannot tell it from a grid extent.
    with_stream = isinstance(key, tuple) and len(key) == 2 and not isinstance(key[1], (int, np.integer))
    grid, stream = key if with_stream else (key, None)
    return _grid3(grid), stream


def _threads(launch: dict[str, Any]) -> int:
    """Threads per block of a tile kernel's entry or variant: "threads" where the GEMM path added a producer
    warpgroup, else 32 per warp."""
    return int(launch.get("threads", WARP * int(launch["warps"])))


def persistent_grid(tiles: tuple[int, int, int], variant: dict[str, Any], multiprocessors: int,
                    resident_clusters: int | None = None) -> tuple[int, int, int]:
    """The grid of a persistent kernel, which walks the tile grid itself: at most one block per SM, and with a
    cluster (docs/tile-hopper.md, "Clusters") a whole number of clusters, each walking cluster tiles (CM x CN
    output tiles), at most one per CM * CN SMs and at most `resident_clusters` (what the device runs at once,
    when known), at least one cluster."""
    if not variant.get("cluster"):
        return (min(tiles[0] * tiles[1] * tiles[2], multiprocessors), 1, 1)
    cm, cn = variant["cluster_tiles"]
    blocks = cm * cn
    if variant.get("batched"):  # a batched GEMM's grid is (batch, tile rows, tile columns)
        tiles = (tiles[1], tiles[2], tiles[0])
    cluster_tiles = -(-tiles[0] // cm) * -(-tiles[1] // cn) * tiles[2]
    most = multiprocessors // blocks if resident_clusters is None else min(resident_clusters, multiprocessors // blocks)
    return (blocks * max(1, min(cluster_tiles, most)), 1, 1)


class TileKernel:
    """One compiled tile kernel of a loaded module."""

    def __init__(self, spec: KernelSpec, executor: Any):
        assert spec.tile is not None
        self.spec, self.executor = spec, executor
        # The block of the kernel's own entry: a kernel on sm_90a's GEMM path may have a producer warpgroup beside
        # its warps ("threads"); each launch-time variant carries its own launch shape.
        self.block = (_threads(spec.tile), 1, 1)
        self.binder = TileBinder(spec, gpu=executor.target == "gpu")
        self.device = getattr(executor, "device", None)  # None on the emulator
        self._functions: dict[str, Any] = {}
        # Per (launch key, grid): the packed launch and the checked binding it was packed from (_relaunch).
        self._bindings: dict[tuple, tuple[Any, Any]] = {}

    @property
    def function(self) -> Any:
        """The executor's function of the kernel's own entry (loaded on first use)."""
        return self._variant_function(own_variant(self.spec))

    def _warps(self, variant: dict[str, Any]) -> int:
        """A variant's warps: its own, or the kernel's where it names none (a straight-line kernel's two
        entries)."""
        return int(variant.get("warps", self.spec.tile["warps"]))  # type: ignore[index]

    def _variant_function(self, variant: dict[str, Any]) -> Any:
        """The function of one launch-time variant (tile_marshal.py), loaded on first use with its ABI (its tensor
        maps) and its dynamic shared memory (the stage ring of sm_90a's GEMM path, docs/tile-hopper.md)."""
        function = self._functions.get(variant["entry"])
        if function is None:
            tile = {"warps": self._warps(variant), "tma": variant.get("tma", [])}
            # A clustered entry launches through cuLaunchKernelEx with its cluster dimensions.
            spec = dataclasses.replace(self.spec, entry=variant["entry"], tile=tile,
                                       cluster=list(variant.get("cluster") or []))
            function = self._functions[variant["entry"]] = self.executor.function(spec)
            if variant.get("dynamic_shared"):
                function.allow_dynamic_shared(int(variant["dynamic_shared"]))
        return function

    def __call__(self, *args: Any, stream: Any = None) -> None:
        """Launch over the output partitions' grid (synchronously unless `stream` is given)."""
        self._launch(args, None, stream)

    def __getitem__(self, key: Any) -> _TileConfigured:
        """`kernel[grid]` or `kernel[grid, stream]`: `grid` must be the output partitions' grid."""
        return _TileConfigured(self, *_grid_and_stream(key))

    def prepare(self, *args: Any, grid: Any = None, stream: Any = None) -> "PreparedTileLaunch":
        """Check a launch once (arguments, partitions, grid, overlaps) and return a callable that repeats it on
        the same arrays with no checks: the arguments must be device arrays (a host array's copy would go stale)
        and must stay alive and unchanged in shape while the prepared launch is used."""
        bound = self._checked(args, None if grid is None else _grid3(grid), allow_host=False)
        return PreparedTileLaunch(self, bound, args, stream)

    def _launch(self, args: Sequence[Any], grid: tuple[int, int, int] | None, stream: Any,
                key: tuple | None = None) -> None:
        if stream is not None and self.executor.target == "gpu":
            key = launch_key(args) if key is None else key
            if key is not None:
                self._relaunch((key, grid), args, grid, stream)
                return
        bound = self._checked(args, grid, allow_host=stream is None)
        if self.executor.target != "gpu":
            self.executor.launch_tile(self.spec, bound.grid, bound.abi)
            return
        if stream is not None:  # an argument launch_key does not cover (a host array is refused in _checked)
            handle, ledger = resolve(stream, self.device, self.spec.name)
            self._enqueue(bound, handle)
            ledger.hold(args)  # the arguments outlive the queued kernel (inflight.py)
            return
        if capturing_here():
            raise GraphError(f"kernel `{self.spec.name}`: a synchronous launch inside a graph capture would wait for "
                             "the device, which the capture forbids; pass the capturing stream "
                             f"(`mod.{self.spec.name}[grid, stream](...)` or `stream=`)")
        self._enqueue(bound, None)
        self.executor.synchronize(self.spec.name)
        for host, device in bound.copy_back:
            host[...] = device.get()

    def _relaunch(self, key: tuple, args: Sequence[Any], grid: tuple[int, int, int] | None, stream: Any) -> None:
        """A stream-ordered launch on device arrays. While the arguments' key (launch_key.py) repeats, the same
        checks would give the same binding, so the first launch's checked binding, packed once
        (gpu.PackedLaunch), is enqueued again: a relaunch costs the key, the stream and the driver call."""
        entry = self._bindings.get(key)
        if entry is None:
            bound = self._checked(args, grid, allow_host=False)
            if len(self._bindings) >= _BINDINGS:
                self._bindings.pop(next(iter(self._bindings)))
            entry = self._bindings[key] = (self._ready(bound), bound)
        handle, ledger = resolve(stream, self.device, self.spec.name)
        entry[0](handle)
        ledger.hold(args)  # the arguments outlive the queued kernel (inflight.py)

    def _checked(self, args: Sequence[Any], grid: tuple[int, int, int] | None, allow_host: bool) -> Any:
        """The bound arguments of a launch after every launch check."""
        name = self.spec.name
        bound = self.binder.bind(args, allow_host)
        if bound.grid is None:
            if grid is None:
                raise KernelArgumentError(f"kernel `{name}` has no output partition to take its grid from: launch "
                                          f"it as `mod.{name}[grid](...)`")
            bound.grid = grid
        elif grid is not None and grid != bound.grid:
            raise LaunchContractError(name, "grid", f"{bound.grid} (the output partitions' grid)", grid,
                                      "a tile block writes exactly one output tile, so the grid is the partition "
                                      "grid")
        limits = self.executor.limits
        for axis, (extent, most) in enumerate(zip(bound.grid, limits.max_grid)):
            if not 1 <= extent <= most:
                raise LaunchContractError(name, "grid", f"1 to {most} tile blocks along {'xyz'[axis]}", bound.grid,
                                          "device limit")
        if len(bound.buffers) > 1:
            check_overlaps(name, bound.buffers)
        return bound

    def _configure(self, bound: Any) -> tuple[Any, LaunchConfig]:
        """The function and launch configuration of a binding: its variant's entry, block and dynamic shared
        memory, and the grid (a persistent variant's own, which walks the tile grid)."""
        variant = bound.variant
        grid = bound.grid
        block = (_threads({**variant, "warps": self._warps(variant)}), 1, 1)
        shared = int(variant.get("dynamic_shared", 0))
        function = self._variant_function(variant)
        if variant.get("persistent"):
            resident = None
            if variant.get("cluster"):
                resident = self.executor.active_clusters(function, block, shared)
            grid = persistent_grid(grid, variant, self.executor.limits.multiprocessors, resident)
        return function, LaunchConfig(grid, block, shared, 3)

    def _ready(self, bound: Any) -> Callable[[Any], None]:
        """Enqueueing a binding on a raw stream handle, again and again: its launch packed once
        (gpu.PackedLaunch), or for a cluster or cooperative launch (launch_ex.py) or one with staged operands
        (staging.py) packed per launch."""
        function, config = self._configure(bound)
        if bound.staged:  # buffers, tensor maps and copies per launch (staging.py)
            return self._staged(function, config, bound)
        packed = self.executor.packed(function, config, bound.abi)
        return packed or functools.partial(self.executor.launch, function, config, bound.abi)

    def _enqueue(self, bound: Any, handle: Any) -> None:
        function, config = self._configure(bound)
        if bound.staged:
            self._staged(function, config, bound)(handle)
        else:
            self.executor.launch(function, config, bound.abi, handle)

    def _staged(self, function: Any, config: LaunchConfig, bound: Any) -> Callable[[Any], None]:
        """Enqueueing a binding with staged operands on a raw stream handle (staging.launch_staged)."""
        launch = functools.partial(self.executor.launch, function, config)
        return functools.partial(launch_staged, self.binder, bound, launch, self.spec.name)

    def __repr__(self) -> str:
        return f"<tile kernel {self.binder.signature} [{self.spec.entry} on {self.executor.chip}], block {self.block}>"


class PreparedTileLaunch:
    """A tile launch checked once by `kernel.prepare(...)`: calling it enqueues the kernel again on the same
    arrays and stream, without checks (on the emulator it runs the kernel again). It holds its arguments, and a
    queued launch holds it (inflight.py)."""

    def __init__(self, kernel: TileKernel, bound: Any, args: Sequence[Any], stream: Any):
        self.kernel, self.bound, self.args, self.stream = kernel, bound, tuple(args), stream
        self.handle, self.ledger, self.ready = None, None, None
        if kernel.executor.target == "gpu":
            # Without a stream, the launches queue on the legacy default stream (raw handle 0).
            self.handle, self.ledger = resolve(0 if stream is None else stream, kernel.device, kernel.spec.name)
            self.ready = kernel._ready(bound)

    def __call__(self) -> None:
        if self.kernel.executor.target != "gpu":
            self.kernel.executor.launch_tile(self.kernel.spec, self.bound.grid, self.bound.abi)
            return
        if self.stream is None and capturing_here():
            raise GraphError(f"kernel `{self.kernel.spec.name}`: this launch was prepared without `stream=`, so it "
                             "would run on the default stream, outside the graph being captured; prepare it with "
                             "the capturing stream")
        if type(self.stream) is Stream:
            self.stream.last_kernel = self.kernel.spec.name
        self.ready(self.handle)
        self.ledger.hold(self)

    def __repr__(self) -> str:
        return f"<prepared launch of {self.bound.variant.get('entry', self.kernel.spec.entry)}, grid {self.bound.grid}>"


class _TileConfigured:
    """`kernel[grid]`: call it with the arguments."""

    def __init__(self, kernel: TileKernel, grid: tuple[int, int, int], stream: Any):
        self.kernel, self.grid, self.stream = kernel, grid, stream

    def __call__(self, *args: Any) -> None:
        self.kernel._launch(args, self.grid, self.stream)


class TileKernelGroup:
    """The instances of one generic tile kernel; a call picks the first instance the arguments fit."""

    def __init__(self, name: str, instances: list[TileKernel]):
        self.name, self.instances = name, instances
        self._chosen: dict[tuple, TileKernel] = {}  # the instance chosen per launch key (launch_key.py)

    def select(self, args: Sequence[Any]) -> TileKernel:
        """The first instance whose signature accepts `args`."""
        return select_instance(self.name, self.instances, args)

    def _select_keyed(self, args: Sequence[Any]) -> tuple[TileKernel, tuple | None]:
        """`select(args)` and the arguments' launch key; arguments whose key repeats fit the same instance (the
        key fixes every check a signature makes), so the choice is remembered per key."""
        key = launch_key(args)
        kernel = None if key is None else self._chosen.get(key)
        if kernel is None:
            kernel = self.select(args)
            if key is not None:
                if len(self._chosen) >= _BINDINGS:
                    self._chosen.pop(next(iter(self._chosen)))
                self._chosen[key] = kernel
        return kernel, key

    def __call__(self, *args: Any, stream: Any = None) -> None:
        self.select(args)(*args, stream=stream)

    def prepare(self, *args: Any, grid: Any = None, stream: Any = None) -> PreparedTileLaunch:
        """`prepare` of the first instance whose signature accepts `args`."""
        return self.select(args).prepare(*args, grid=grid, stream=stream)

    def __getitem__(self, key: Any) -> _GroupConfigured:
        return _GroupConfigured(self, *_grid_and_stream(key))

    def __repr__(self) -> str:
        return f"<generic tile kernel {self.name}: {', '.join(k.spec.entry for k in self.instances)}>"


class _GroupConfigured:
    """`group[grid]` or `group[grid, stream]`: the instance is chosen when the arguments arrive."""

    def __init__(self, group: TileKernelGroup, grid: tuple[int, int, int], stream: Any):
        self.group, self.grid, self.stream = group, grid, stream

    def __call__(self, *args: Any) -> None:
        kernel, key = self.group._select_keyed(args)
        kernel._launch(args, self.grid, self.stream, key)
