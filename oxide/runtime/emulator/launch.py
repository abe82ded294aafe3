"""Launching an emulator program: load (and cache) the program text, check and convert the arguments, and
run the blocks in batches of whole blocks, each batch in lock step as one vector (one block per batch when
asked: `blocks_per_batch=1`)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import LaunchError, UnsupportedOperation
from oxide.runtime.emulator.memory import Buffer
from oxide.runtime.emulator.races import RaceTracker
from oxide.runtime.emulator.clusters import link
from oxide.runtime.emulator.schedule import residency_groups, run_group
from oxide.runtime.emulator.threads import Launch, Threads

# Lanes per batch: big enough that numpy's per-call cost vanishes, small enough that a batch's temporaries
# stay small.
BATCH_LANES = 1 << 16
_PROGRAMS: OrderedDict[str, dict[str, Any]] = OrderedDict()
_PROGRAM_CACHE_SIZE = 64
# How a kernel that does not need scheduled execution runs: "lockstep" (fast), or "warps" (one coroutine per
# warp; the test suite runs with it too, to show that both modes agree).
DEFAULT_SCHEDULE = "lockstep"
SCHEDULES = ("lockstep", "warps")


def load_program(program: str) -> dict[str, Any]:
    """The namespace of an emulator program (executed once per distinct text)."""
    namespace = _PROGRAMS.get(program)
    if namespace is None:
        namespace = {"__name__": "oxide_emulator_program"}
        exec(compile(program, "<oxide emulator program>", "exec"), namespace)  # noqa: S102 (our own generated program)
        _PROGRAMS[program] = namespace
        if len(_PROGRAMS) > _PROGRAM_CACHE_SIZE:
            _PROGRAMS.popitem(last=False)
    else:
        _PROGRAMS.move_to_end(program)
    return namespace


def _dims(value: Sequence[int] | int, what: str) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, int | np.integer) else tuple(value)
    if not 1 <= len(dims) <= 3 or any(int(d) < 1 for d in dims):
        raise LaunchError(f"{what} must be 1 to 3 positive extents, got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))  # type: ignore[return-value]


def _scalar(value: Any, dtype: np.dtype, where: str) -> Any:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if dtype == np.bool_:
        return np.bool_(bool(value))
    if dtype.kind == "f":
        if not isinstance(value, int | float | np.integer | np.floating):
            raise LaunchError(f"{where} is a {dtype} scalar, got {type(value).__name__}")
        return dtype.type(value)
    if not isinstance(value, int | np.integer | bool | np.bool_):
        raise LaunchError(f"{where} is an integer scalar, got {type(value).__name__}")
    bits = dtype.itemsize * 8
    wrapped = int(value) & ((1 << bits) - 1)
    return np.array(wrapped, np.dtype(f"u{dtype.itemsize}")).view(dtype)[()]


def _buffer(value: Any, dtype: np.dtype, runtime_2d: bool, where: str, trackers: dict[Any, RaceTracker],
            check_races: bool, unit: int = 1) -> Buffer:
    """A buffer argument; `unit` > 1 for elements that are structs or arrays held as `unit` scalars each (a
    structured array of records of that size is viewed as its scalars)."""
    width = None
    if runtime_2d:
        if isinstance(value, tuple) and len(value) == 2:
            value, width = value
        elif isinstance(value, np.ndarray) and value.ndim == 2:
            width = value.shape[1]
        else:
            raise LaunchError(f"{where} is a DisjointSlice with a runtime 2-D index: pass a 2-D array or "
                              "(1-D array, row width)")
    if not isinstance(value, np.ndarray):
        raise LaunchError(f"{where} is a buffer of {dtype}: pass a numpy array, got {type(value).__name__}")
    if not value.flags.c_contiguous:
        raise LaunchError(f"{where} must be a C-contiguous numpy array (the kernel writes it in place)")
    if unit > 1 and value.dtype.names is not None and value.dtype.itemsize == unit * dtype.itemsize:
        value = value.view(dtype)
    if unit > 1 and value.size % unit:
        raise LaunchError(f"{where} holds elements of {unit} {dtype} values each, got {value.size} values")
    if value.dtype != dtype:
        if value.dtype.itemsize == dtype.itemsize and value.dtype.kind in "iub" and dtype.kind in "iub":
            value = value.view(dtype)  # signless integers: u32 data in an i32 buffer is the same bits
        else:
            raise LaunchError(f"{where} holds {dtype} elements, got an array of {value.dtype}")
    flat = value.reshape(-1)
    tracker = None
    if check_races:
        key = (value.__array_interface__["data"][0], flat.size, dtype.str)
        tracker = trackers.get(key)
        if tracker is None:
            tracker = trackers[key] = RaceTracker(flat.size, where)
    return Buffer(flat, where, tracker, width=None if width is None else int(width), unit=unit)


def kernel_meta(program: str, entry: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An emulator program's namespace and the KERNELS entry of its kernel `entry` (LaunchError when there is
    none, UnsupportedOperation when the emulator cannot run it)."""
    namespace = load_program(program)
    kernels = namespace["KERNELS"]
    if entry not in kernels:
        raise LaunchError(f"no kernel `{entry}` in this program (kernels: {', '.join(sorted(kernels))})")
    meta = kernels[entry]
    if "unsupported" in meta:
        raise UnsupportedOperation(f"kernel `{entry}` cannot run on the emulator:\n{meta['unsupported']}")
    return namespace, meta


def launch(program: str, entry: str, grid: tuple[int, int, int], block: tuple[int, int, int], args: Sequence[Any],
           dynamic_shared: int = 0, *, shuffle_blocks: bool | int = False, check_races: bool = True,
           blocks_per_batch: int | None = None, schedule: str | None = None,
           cluster: Sequence[int] | None = None) -> None:
    """Run kernel `entry` of an emulator program over `grid` x `block` threads; buffers are written in place.

    `shuffle_blocks` runs the blocks in a random order (an int seeds it); `check_races` reports data races;
    `blocks_per_batch` sets how many blocks run together in one vector (by default about 65536 threads);
    `schedule` is "lockstep" or "warps" (one coroutine per warp: schedule.py), by default what the kernel
    needs; `cluster` is the cluster shape (blocks per cluster along x, y, z) of a scheduled launch.
    """
    namespace, meta = kernel_meta(program, entry)
    if "tile" in meta:
        raise LaunchError(f"kernel `{entry}` is a tile kernel: launch it with oxide.runtime.emulator.launch_tile")
    grid3, block3 = _dims(grid, "grid"), _dims(block, "block")
    params = [p for p in meta["params"] if p[0] != "workspace"]  # a cooperative kernel's hidden workspace
    if len(args) != len(params):
        raise LaunchError(f"kernel `{entry}` takes {len(params)} arguments, got {len(args)}")
    shape = _cluster_shape(entry, meta, cluster, grid3)
    layout = meta.get("shared")
    state = Launch(entry, namespace["LOCS"], grid3, block3, int(dynamic_shared), check_races,
                   shared_layout=None if layout is None else tuple(tuple(a) for a in layout),
                   dynamic_align=int(meta.get("dynamic_align", 16)), cluster=shape)
    trackers: dict[Any, RaceTracker] = {}
    values = [_argument(entry, k, param, value, trackers, check_races) for k, (param, value) in
              enumerate(zip(params, args))]
    if len(params) < len(meta["params"]):
        values.append(None)  # the workspace: the scheduler is the emulator's grid barrier
    state.global_trackers = list(trackers.values())
    gx, gy, gz = grid3
    blocks = np.stack(np.meshgrid(np.arange(gx), np.arange(gy), np.arange(gz), indexing="ij"), -1)
    blocks = blocks.transpose(2, 1, 0, 3).reshape(-1, 3).astype(np.int64)  # x fastest, as blockIdx counts
    if shuffle_blocks is not False:
        seed = None if shuffle_blocks is True else int(shuffle_blocks)
        blocks = blocks[np.random.default_rng(seed).permutation(len(blocks))]
    mode = _schedule(entry, meta, schedule)
    if mode == "warps":
        with np.errstate(all="ignore"):
            for group in residency_groups(blocks, shape, bool(meta.get("grid_sync"))):
                run_group(state, meta["warps"], values, group, shape, lambda threads: link(threads, shape))
        return
    per_batch = blocks_per_batch or max(1, BATCH_LANES // state.per_block)
    function = meta["function"]
    with np.errstate(all="ignore"):
        for start in range(0, len(blocks), per_batch):
            threads = Threads(state, blocks[start:start + per_batch])
            function(threads, threads.full, *values)
            threads.flush_races()


def _argument(entry: str, k: int, param: Sequence[Any], value: Any, trackers: dict[Any, RaceTracker],
              check_races: bool) -> Any:
    """The emulator's value of argument `k` for a parameter (kind, dtype, [unit])."""
    kind, dtype_name, *unit = param
    where = f"kernel parameter {k} of `{entry}`"
    dtype = np.dtype(dtype_name)
    if kind == "scalar":
        return _scalar(value, dtype, where)
    if kind == "tensor_map":
        if not isinstance(getattr(value, "array", None), np.ndarray) or not hasattr(value, "box"):
            raise LaunchError(f"{where} is a tensor map: pass an oxide.runtime.TensorMap of a numpy array, got "
                              f"{type(value).__name__}")
        return value
    return _buffer(value, dtype, kind == "buffer_2d", where, trackers, check_races, *unit)


def _cluster_shape(entry: str, meta: dict[str, Any], cluster: Sequence[int] | None,
                   grid: tuple[int, int, int]) -> tuple[int, int, int] | None:
    """The launch's cluster shape: the one asked for, else the kernel's #[cluster_launch]; the grid must be
    whole clusters."""
    declared = meta.get("cluster")
    shape = _dims(tuple(cluster), "cluster") if cluster is not None else \
        _dims(tuple(declared), "cluster") if declared else None
    if shape is None:
        return None
    if declared and tuple(declared) + (1,) * (3 - len(declared)) != shape:
        raise LaunchError(f"kernel `{entry}` is compiled for clusters of {tuple(declared)} blocks "
                          f"(#[cluster_launch]), launched with {shape}")
    if any(g % s for g, s in zip(grid, shape)):
        raise LaunchError(f"the grid {grid} is not a whole number of clusters of {shape} blocks")
    return shape


def _schedule(entry: str, meta: dict[str, Any], asked: str | None) -> str:
    """The execution mode of a launch: what was asked, else what the kernel needs, else DEFAULT_SCHEDULE."""
    needed = meta.get("schedule")
    mode = asked or needed or DEFAULT_SCHEDULE
    if mode not in SCHEDULES:
        raise LaunchError(f"schedule must be one of {', '.join(SCHEDULES)}, got {mode!r}")
    if mode == "lockstep" and needed == "warps":
        raise LaunchError(f"kernel `{entry}` blocks warps on one another (an mbarrier wait, a cluster or grid "
                          "sync) and runs only with schedule=\"warps\"")
    if mode == "warps" and "warps" not in meta:
        raise LaunchError(f"this program has no scheduled function for kernel `{entry}`: regenerate it")
    return mode
