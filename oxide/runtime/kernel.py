"""Typed launchers generated from kernel signatures.

    mod.saxpy(a, x, y, out, config=LaunchConfig1D(blocks, 256))      # checked launch, synchronous
    mod.saxpy[blocks, 256](a, x, y, out)                             # numba style, the same checks
    mod.saxpy[blocks, 256, stream](a, x, y, out)                     # stream-ordered (returns at once)
    prepared = mod.saxpy.prepare(LaunchConfig1D(blocks, 256))        # checked once against the device
    prepared(a, x, y, out, stream=stream)
    mod.vecadd.unchecked[blocks, 256](a, b, c)                       # a kernel without #[launch_contract]

Every launch checks the arguments against the signature, every mutable buffer against every other buffer
for overlap, and the contract's `requires` relations; preparation (once per configuration) checks the rest
of the contract and the device and function limits. A kernel without a contract launches only through
`.unchecked`: its witnesses then check the geometry on the device. A generic kernel (`mod.scale`) picks the
instance whose parameter types match the arguments; `mod.scale_f32` names one instance.
"""

from __future__ import annotations

from typing import Any, Sequence

from oxide.runtime.config import LaunchConfig
from oxide.runtime.contract import check_requires, parse_requires, prepare
from oxide.runtime.errors import GraphError, KernelArgumentError, UncontractedLaunchError
from oxide.runtime.fastpath import specialise
from oxide.runtime.gpu import GpuExecutor
from oxide.runtime.inflight import capturing_here
from oxide.runtime.marshal import Binder, check_overlaps, select_instance
from oxide.runtime.signature import KernelSpec
from oxide.runtime.stream import resolve


# Configurations cached per kernel for kernel[grid, block] (a program with more is still correct, just slower).
_MAX_CACHED_LAUNCHERS = 256


class PreparedLaunch:
    """A configuration checked against one kernel's contract, the device and the function."""

    def __init__(self, kernel: "Kernel", config: LaunchConfig, checked_contract: bool):
        self.kernel, self.config, self.checked_contract = kernel, config, checked_contract
        needed = prepare(kernel.spec, config, kernel.executor.limits, kernel.function.limits, checked_contract)
        if needed:
            kernel.function.allow_dynamic_shared(needed)
        self.fast = specialise(kernel, config) if isinstance(kernel.executor, GpuExecutor) else None

    def __call__(self, *args: Any, stream: Any = None) -> None:
        """Launch with these arguments (synchronously unless `stream` is given)."""
        if self.fast is None or self.fast(args, stream) is None:
            self.kernel._launch(self, args, stream)

    def __repr__(self) -> str:
        return f"PreparedLaunch({self.kernel.spec.name}, grid={self.config.grid}, block={self.config.block})"


def _config(key: Any) -> tuple[LaunchConfig, Any]:
    """`kernel[grid, block]`, `[grid, block, stream]`, `[grid, block, stream, shared_bytes]`."""
    if not isinstance(key, tuple) or not 2 <= len(key) <= 4:
        raise TypeError("launch with kernel[grid, block], kernel[grid, block, stream] or "
                        "kernel[grid, block, stream, dynamic_shared_bytes]")
    grid, block, stream, shared = (list(key) + [None, 0])[:4]
    return LaunchConfig.of(grid, block, shared or 0), stream


class _Configured:
    """`kernel[grid, block]`: call it with the arguments."""

    def __init__(self, launcher: Any, config: LaunchConfig, stream: Any):
        self.launcher, self.config, self.stream = launcher, config, stream

    def __call__(self, *args: Any) -> None:
        self.launcher(*args, config=self.config, stream=self.stream)


class Kernel:
    """One compiled kernel (one instance of a generic kernel) of a loaded module."""

    def __init__(self, spec: KernelSpec, executor: Any):
        self.spec, self.executor = spec, executor
        self.binder = Binder(spec, gpu=executor.target == "gpu")
        self.requires = parse_requires(spec)
        self.contracted = bool(spec.contract)
        self._function: Any = None
        self.device = getattr(executor, "device", None)  # None on the emulator
        self._prepared: dict[tuple[LaunchConfig, bool], PreparedLaunch] = {}
        self._launchers: dict[Any, _Launcher] = {}
        self.unchecked = _Unchecked(self)

    @property
    def function(self) -> Any:
        """The executor's function (loaded on first use)."""
        if self._function is None:
            self._function = self.executor.function(self.spec)
        return self._function

    def prepare(self, config: LaunchConfig) -> PreparedLaunch:
        """Check `config` against the contract and the device once; launch the result many times."""
        if not self.contracted:
            raise self._uncontracted()
        return self._prepare(config, True)

    def _prepare(self, config: LaunchConfig, contracted: bool) -> PreparedLaunch:
        key = (config, contracted)
        prepared = self._prepared.get(key)
        if prepared is None:
            prepared = self._prepared[key] = PreparedLaunch(self, config, contracted)
        return prepared

    def _uncontracted(self) -> UncontractedLaunchError:
        return UncontractedLaunchError(
            f"kernel `{self.spec.name}` has no #[launch_contract], so nothing proves its launch geometry; launch it "
            f"through `.unchecked` (`mod.{self.spec.name}.unchecked[grid, block](...)`: its index witnesses check "
            "the geometry on the device and write nothing on a mismatch), or declare a contract such as "
            "#[launch_contract(domain = 1)]")

    def __call__(self, *args: Any, config: LaunchConfig | PreparedLaunch, stream: Any = None) -> None:
        """A checked launch (kernels with a contract)."""
        if isinstance(config, PreparedLaunch):
            if config.kernel is not self or not config.checked_contract:
                raise KernelArgumentError(f"kernel `{self.spec.name}`: this PreparedLaunch belongs to "
                                          f"`{config.kernel.spec.entry}`")
            prepared = config
        else:
            if not self.contracted:
                raise self._uncontracted()
            prepared = self._prepare(config, True)
        if prepared.fast is None or prepared.fast(args, stream) is None:
            self._launch(prepared, args, stream)

    def __getitem__(self, key: Any) -> "_Launcher":
        launcher = self._launchers.get(key) if type(key) is tuple else None
        if launcher is None:
            config, stream = _config(key)
            if not self.contracted:
                raise self._uncontracted()
            launcher = _cache(self._launchers, key, _Launcher(self, self._prepare(config, True), stream))
        return launcher

    def _launch(self, prepared: PreparedLaunch, args: Sequence[Any], stream: Any) -> None:
        spec = self.spec
        bound = self.binder.bind(args, stream is None)
        if len(bound.buffers) > 1:
            check_overlaps(spec.name, bound.buffers)
        if self.requires:
            check_requires(spec.name, self.requires, bound.values)
        if stream is None:
            if capturing_here():
                raise _synchronous_in_capture(spec.name)
            self.executor.launch(self.function, prepared.config, bound.abi, None)
            self.executor.synchronize(spec.name)
            for host, device in bound.copy_back:
                device.copy_to(host)
            return
        if self.device is None:  # the emulator runs each launch to completion: nothing is queued
            self.executor.launch(self.function, prepared.config, bound.abi, None)
            return
        handle, ledger = resolve(stream, self.device, spec.name)
        self.executor.launch(self.function, prepared.config, bound.abi, handle)
        ledger.hold(args)  # the arguments outlive the queued kernel (inflight.py)

    def __repr__(self) -> str:
        contract = f", contract={self.spec.contract}" if self.spec.contract else ""
        return f"<kernel {self.binder.signature} [{self.spec.entry} on {self.executor.chip}]{contract}>"


def _synchronous_in_capture(kernel: str) -> GraphError:
    """A launch without `stream=` inside a capture: it would wait for the device, which a capture forbids."""
    return GraphError(f"kernel `{kernel}`: a synchronous launch inside a graph capture would wait for the device, "
                      "which the capture forbids; pass the capturing stream (`kernel[grid, block, stream]` or "
                      "`stream=`)")


class _Unchecked:
    """`kernel.unchecked`: launches without a launch contract (device-side witness checks only)."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.launchers: dict[Any, _Launcher] = {}

    def __call__(self, *args: Any, config: LaunchConfig, stream: Any = None) -> None:
        prepared = self.kernel._prepare(config, False)
        if prepared.fast is None or prepared.fast(args, stream) is None:
            self.kernel._launch(prepared, args, stream)

    def __getitem__(self, key: Any) -> "_Launcher":
        launcher = self.launchers.get(key) if type(key) is tuple else None
        if launcher is None:
            config, stream = _config(key)
            launcher = _cache(self.launchers, key, _Launcher(self.kernel, self.kernel._prepare(config, False), stream))
        return launcher


class _Launcher:
    """`kernel[grid, block, stream]` for one configuration, prepared once and cached by the kernel."""

    __slots__ = ("kernel", "prepared", "stream")

    def __init__(self, kernel: Kernel, prepared: PreparedLaunch, stream: Any):
        self.kernel, self.prepared, self.stream = kernel, prepared, stream

    def __call__(self, *args: Any) -> None:
        fast = self.prepared.fast
        if fast is None or fast(args, self.stream) is None:
            self.kernel._launch(self.prepared, args, self.stream)


def _cache(table: dict[Any, _Launcher], key: Any, launcher: _Launcher) -> _Launcher:
    """Remember `launcher` under `key` (bounded; an unhashable stream object is simply not cached)."""
    if len(table) < _MAX_CACHED_LAUNCHERS:
        try:
            table[key] = launcher
        except TypeError:
            pass
    return launcher


class KernelGroup:
    """The instances of one generic kernel; a call picks the instance the arguments fit."""

    def __init__(self, name: str, instances: list[Kernel]):
        self.name, self.instances = name, instances
        self.unchecked = _GroupUnchecked(self)

    def select(self, args: Sequence[Any]) -> Kernel:
        """The first instance whose signature accepts `args`."""
        return select_instance(self.name, self.instances, args)

    def __call__(self, *args: Any, config: LaunchConfig, stream: Any = None) -> None:
        self.select(args)(*args, config=config, stream=stream)

    def __getitem__(self, key: Any) -> _Configured:
        config, stream = _config(key)
        return _Configured(self, config, stream)

    def prepare(self, config: LaunchConfig) -> "_GroupPrepared":
        """Prepared launches per instance, chosen at call time."""
        return _GroupPrepared(self, config)

    def __repr__(self) -> str:
        return f"<generic kernel {self.name}: {', '.join(k.spec.entry for k in self.instances)}>"


class _GroupUnchecked:
    def __init__(self, group: KernelGroup):
        self.group = group

    def __call__(self, *args: Any, config: LaunchConfig, stream: Any = None) -> None:
        self.group.select(args).unchecked(*args, config=config, stream=stream)

    def __getitem__(self, key: Any) -> _Configured:
        config, stream = _config(key)
        return _Configured(self, config, stream)


class _GroupPrepared:
    def __init__(self, group: KernelGroup, config: LaunchConfig):
        self.group, self.config = group, config

    def __call__(self, *args: Any, stream: Any = None) -> None:
        kernel = self.group.select(args)
        kernel.prepare(self.config)(*args, stream=stream)
