"""A stand-in for `cuda.bindings.driver`, so the runtime's GPU path runs without a GPU: device memory is host
memory, a launch records the parameter bytes the driver would copy (read through the kernelParams pointer
array, sized by the PTX entry's .param list), and errors can be injected."""

from __future__ import annotations

import ctypes
import enum
import re
from typing import Any

import numpy as np


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_NOT_READY = 600
    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901
    CUDA_ERROR_LAUNCH_FAILED = 719
    CUDA_ERROR_ASSERT = 710


class CUdevice_attribute(enum.IntEnum):
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97


class CUfunction_attribute(enum.IntEnum):
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


class CUstream_flags(enum.IntEnum):
    CU_STREAM_NON_BLOCKING = 1


class CUevent_flags(enum.IntEnum):
    CU_EVENT_DEFAULT = 0
    CU_EVENT_DISABLE_TIMING = 2


class CUstreamCaptureMode(enum.IntEnum):
    CU_STREAM_CAPTURE_MODE_GLOBAL = 0
    CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1
    CU_STREAM_CAPTURE_MODE_RELAXED = 2


class CUpointer_attribute(enum.IntEnum):
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9


class CUlaunchAttributeID(enum.IntEnum):
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


class _Fields:
    """A driver structure: attributes set freely, nested ones made on first read."""

    def __getattr__(self, name: str) -> Any:
        value = _Fields()
        setattr(self, name, value)
        return value


class CUlaunchConfig(_Fields):
    pass


class CUDA_MEMCPY2D(_Fields):
    pass


class CUmemorytype(enum.IntEnum):
    CU_MEMORYTYPE_DEVICE = 2


class CUlaunchAttribute(_Fields):
    pass


ATTRIBUTES = {"MAX_THREADS_PER_BLOCK": 1024, "MAX_BLOCK_DIM_X": 1024, "MAX_BLOCK_DIM_Y": 1024, "MAX_BLOCK_DIM_Z": 64,
              "MAX_GRID_DIM_X": (1 << 31) - 1, "MAX_GRID_DIM_Y": 65535, "MAX_GRID_DIM_Z": 65535,
              "MAX_SHARED_MEMORY_PER_BLOCK": 48 << 10, "COMPUTE_CAPABILITY_MAJOR": 9, "COMPUTE_CAPABILITY_MINOR": 0,
              "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 227 << 10, "MULTIPROCESSOR_COUNT": 132}
_PARAM = re.compile(r"\.param \.(u64|u32|f32|f64|u8|u16|s32|b32|b64)\b")
_SIZES = {"u64": 8, "b64": 8, "f64": 8, "u32": 4, "s32": 4, "b32": 4, "f32": 4, "u16": 2, "u8": 1}

OK = CUresult.CUDA_SUCCESS
CONTEXT = 0xC0  # the primary context's handle


class FakeDriver:
    """The module-level functions of cuda.bindings.driver that the runtime calls."""

    CUresult, CUdevice_attribute, CUfunction_attribute, CUstream_flags = (CUresult, CUdevice_attribute,
                                                                         CUfunction_attribute, CUstream_flags)
    CUlaunchAttributeID, CUlaunchConfig, CUlaunchAttribute = CUlaunchAttributeID, CUlaunchConfig, CUlaunchAttribute
    CUevent_flags, CUstreamCaptureMode, CUpointer_attribute = CUevent_flags, CUstreamCaptureMode, CUpointer_attribute
    CUDA_MEMCPY2D, CUmemorytype = CUDA_MEMCPY2D, CUmemorytype
    # What the occupancy queries answer (tests set them to provoke the launch checks).
    active_clusters = 16
    blocks_per_sm = 2

    def __init__(self) -> None:
        self.memory: dict[int, np.ndarray] = {}
        self.launches: list[dict[str, Any]] = []
        self.functions: dict[int, tuple[str, list[str]]] = {}
        self.fail_sync: CUresult | None = None
        self.func_attributes: dict[int, int] = {}
        self.streams = 0x5000  # the last stream handle handed out
        self.stream_contexts: dict[int, int] = {}  # a stream's context, where not CONTEXT (tests set it)
        self.events: dict[int, list[Any]] = {}  # event -> the streams it was recorded on
        self.pending = False  # whether recorded events are still pending (cuEventQuery: NOT_READY)
        self.capturing: dict[int, list[dict[str, Any]]] = {}  # stream -> the launches captured so far
        self.invalidated: set[int] = set()  # captures an unsupported operation invalidated
        self.refuse_extended = False  # refuse to capture cuLaunchKernelEx (as for a cooperative launch)
        self.graphs: dict[int, list[dict[str, Any]]] = {}
        self.destroyed: list[int] = []
        self.copies: list[tuple] = []  # cuMemcpy2DAsync calls

    def cuInit(self, flags: int) -> tuple:
        return (OK,)

    def cuDeviceGetCount(self) -> tuple:
        return OK, 2

    def cuDeviceGet(self, ordinal: int) -> tuple:
        return OK, ordinal

    def cuDevicePrimaryCtxRetain(self, device: int) -> tuple:
        return OK, CONTEXT

    def cuCtxSetCurrent(self, ctx: Any) -> tuple:
        return (OK,)

    def cuDeviceGetAttribute(self, attr: CUdevice_attribute, device: int) -> tuple:
        return OK, ATTRIBUTES[attr.name.removeprefix("CU_DEVICE_ATTRIBUTE_")]

    def cuDeviceGetName(self, length: int, device: int) -> tuple:
        return OK, b"Fake H200\0\0"

    def cuDriverGetVersion(self) -> tuple:
        return OK, 13000

    def cuModuleLoadData(self, image: bytes) -> tuple:
        return OK, image.decode().rstrip("\0")

    def cuModuleGetFunction(self, module: str, name: bytes) -> tuple:
        entry = name.decode()
        start = module.find(f".entry {entry}(")
        if start < 0:
            return CUresult.CUDA_ERROR_INVALID_VALUE, None
        params = _PARAM.findall(module[start:module.find(")", start)])
        handle = len(self.functions) + 1
        self.functions[handle] = (entry, params)
        return OK, handle

    def cuFuncGetAttribute(self, attr: CUfunction_attribute, fn: int) -> tuple:
        return OK, {0: 1024, 1: 0}.get(int(attr), 0)

    def cuFuncSetAttribute(self, fn: int, attr: CUfunction_attribute, value: int) -> tuple:
        self.func_attributes[fn] = value
        return (OK,)

    def cuMemAlloc(self, nbytes: int) -> tuple:
        block = np.zeros(nbytes, np.uint8)
        address = block.ctypes.data
        self.memory[address] = block
        return OK, address

    def cuMemFree(self, ptr: int) -> tuple:
        self.memory.pop(int(ptr), None)
        return (OK,)

    def cuMemcpyHtoD(self, dst: int, src: int, n: int) -> tuple:
        ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    def cuMemcpyDtoH(self, dst: int, src: int, n: int) -> tuple:
        ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    def cuMemsetD8(self, ptr: int, value: int, n: int) -> tuple:
        ctypes.memset(int(ptr), value, n)
        return (OK,)

    def cuLaunchKernel(self, fn: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int, shared: int, stream: Any,
                       params: int, extra: int) -> tuple:
        entry, kinds = self.functions[fn]
        pointers = (ctypes.c_void_p * len(kinds)).from_address(params)
        values = [ctypes.string_at(pointers[i], _SIZES[k]) for i, k in enumerate(kinds)]
        launch = {"entry": entry, "grid": (gx, gy, gz), "block": (bx, by, bz), "shared": shared, "stream": stream,
                  "params": [_decode(v, k) for v, k in zip(values, kinds)]}
        key = None if stream is None else int(stream)
        (self.capturing[key] if key in self.capturing else self.launches).append(launch)
        return (OK,)

    def cuLaunchKernelEx(self, config: CUlaunchConfig, fn: int, params: int, extra: int) -> tuple:
        if self.refuse_extended and config.hStream in self.capturing:
            self.invalidated.add(config.hStream)
            return (CUresult.CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,)
        self.cuLaunchKernel(fn, config.gridDimX, config.gridDimY, config.gridDimZ, config.blockDimX, config.blockDimY,
                            config.blockDimZ, config.sharedMemBytes, config.hStream, params, extra)
        (self.capturing.get(config.hStream) or self.launches)[-1]["attributes"] = {CUlaunchAttributeID(a.id).name: a.value for a in config.attrs}
        return (OK,)

    def cuOccupancyMaxActiveClusters(self, fn: int, config: CUlaunchConfig) -> tuple:
        return OK, self.active_clusters

    def cuOccupancyMaxActiveBlocksPerMultiprocessor(self, fn: int, threads: int, shared: int) -> tuple:
        return OK, self.blocks_per_sm

    def cuMemAllocAsync(self, nbytes: int, stream: Any) -> tuple:
        return self.cuMemAlloc(nbytes)

    def cuMemsetD32Async(self, ptr: int, value: int, n: int, stream: Any) -> tuple:
        (ctypes.c_uint32 * n).from_address(int(ptr))[:] = [value] * n
        return (OK,)

    def cuMemFreeAsync(self, ptr: int, stream: Any) -> tuple:
        return self.cuMemFree(ptr)

    def cuCtxSynchronize(self) -> tuple:
        return (self.fail_sync or OK,)

    def cuStreamCreate(self, flags: int) -> tuple:
        self.streams += 0x10
        return OK, self.streams

    def cuPointerGetAttribute(self, attribute: CUpointer_attribute, ptr: int) -> tuple:
        return OK, 0  # every allocation is on device 0

    def cuStreamGetCtx(self, stream: Any) -> tuple:
        return OK, self.stream_contexts.get(int(stream), CONTEXT)

    def cuEventCreate(self, flags: int) -> tuple:
        handle = 0xE000 + len(self.events)
        self.events[handle] = []
        return OK, handle

    def cuEventRecord(self, event: int, stream: Any) -> tuple:
        self.events[event].append(stream)
        return (OK,)

    def cuEventDestroy(self, event: int) -> tuple:
        self.events.pop(event)
        return (OK,)

    def cuEventQuery(self, event: int) -> tuple:
        return (CUresult.CUDA_ERROR_NOT_READY if self.pending else OK,)

    def cuEventSynchronize(self, event: int) -> tuple:
        return (OK,)

    def cuStreamWaitEvent(self, stream: Any, event: int, flags: int) -> tuple:
        return (OK,)

    def cuMemcpyDtoD(self, dst: int, src: int, n: int) -> tuple:
        ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    def cuMemcpy2DAsync(self, copy: CUDA_MEMCPY2D, stream: Any) -> tuple:
        """A pitched copy, done at once and recorded (`copies`: source, destination, their pitches, width, rows)."""
        self.copies.append((copy.srcDevice, copy.dstDevice, copy.srcPitch, copy.dstPitch, copy.WidthInBytes,
                            copy.Height, stream))
        for row in range(copy.Height):
            ctypes.memmove(int(copy.dstDevice) + row * copy.dstPitch, int(copy.srcDevice) + row * copy.srcPitch,
                           copy.WidthInBytes)
        return (OK,)

    def cuMemcpyDtoDAsync(self, dst: int, src: int, n: int, stream: Any) -> tuple:
        if int(stream) in self.capturing:
            self.capturing[int(stream)].append({"entry": "memcpy", "dst": dst, "src": src, "bytes": n})
        else:
            ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    def cuStreamBeginCapture(self, stream: Any, mode: CUstreamCaptureMode) -> tuple:
        self.capturing[int(stream)] = []
        return (OK,)

    def cuStreamEndCapture(self, stream: Any) -> tuple:
        nodes = self.capturing.pop(int(stream))
        if int(stream) in self.invalidated:
            self.invalidated.discard(int(stream))
            return CUresult.CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, None
        handle = 0x6000 + len(self.graphs)
        self.graphs[handle] = nodes
        return OK, handle

    def cuGraphGetNodes(self, graph: int, count: int) -> tuple:
        return OK, [], len(self.graphs[graph])

    def cuGraphInstantiate(self, graph: int, flags: int) -> tuple:
        return OK, graph + 0x100

    def cuGraphLaunch(self, executable: int, stream: Any) -> tuple:
        for node in self.graphs[executable - 0x100]:
            if node["entry"] == "memcpy":
                ctypes.memmove(int(node["dst"]), int(node["src"]), node["bytes"])
            else:
                self.launches.append(dict(node, stream=stream, replayed=True))
        return (OK,)

    def cuGraphExecDestroy(self, executable: int) -> tuple:
        self.destroyed.append(executable)
        return (OK,)

    def cuGraphDestroy(self, graph: int) -> tuple:
        self.destroyed.append(graph)
        return (OK,)

    def cuStreamSynchronize(self, stream: Any) -> tuple:
        return (self.fail_sync or OK,)

    def cuStreamDestroy(self, stream: Any) -> tuple:
        return (OK,)

    def cuGetErrorString(self, err: CUresult) -> tuple:
        return OK, b"fake description"


def _decode(raw: bytes, kind: str) -> Any:
    if kind == "f32":
        return float(np.frombuffer(raw, np.float32)[0])
    if kind == "f64":
        return float(np.frombuffer(raw, np.float64)[0])
    return int.from_bytes(raw, "little")
