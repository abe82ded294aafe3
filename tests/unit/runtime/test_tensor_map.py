"""oxide.runtime.TensorMap: every hardware rule checked in Python (a TensorMapError naming the rule and the
value), the lazy encoding with the driver (a stand-in driver records the call), the tensor_map parameter
kind, and its marshalling (the 128-byte descriptor on the GPU, the map itself on the emulator)."""

from __future__ import annotations

import ctypes
import types

import numpy as np
import pytest

from oxide.runtime import KernelArgumentError, TensorMap, TensorMapError
from oxide.runtime import tensor_map as tm
from oxide.runtime.gpu import ParameterBlock
from oxide.runtime.marshal import Binder
from oxide.runtime.signature import KernelSpec, ParamSpec, param_spec

GRID = np.zeros((64, 64), np.float32)


class CudaArray:
    """A device array as CuPy/torch show it: only `__cuda_array_interface__`."""

    def __init__(self, shape, typestr="<f4", address=1 << 20, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (address, False),
                                         "strides": strides, "version": 3}


def rule_of(array, box, **kw) -> tuple[str, object]:
    with pytest.raises(TensorMapError) as info:
        TensorMap(array, box, **kw)
    return info.value.rule, info.value.value


def test_description_is_kept_outermost_first():
    m = TensorMap(GRID, (16, 32), swizzle="128B", oob_fill="nan", l2_promotion="128B")
    assert (m.shape, m.strides, m.box, m.element_strides) == ((64, 64), (256, 4), (16, 32), (1, 1))
    assert (m.dtype, m.itemsize, m.rank, m.box_bytes, m.on_host) == ("float32", 4, 2, 2048, True)
    assert (m.swizzle, m.oob_fill, m.l2_promotion, m.extent_bytes) == ("128B", "nan", "128B", 64 * 64 * 4)


def test_element_strides_shrink_the_box_bytes():
    assert TensorMap(GRID, (16, 32), element_strides=(2, 1)).box_bytes == 8 * 32 * 4


@pytest.mark.parametrize("array, box, kw, rule, value", [
    (np.zeros((2,) * 6, np.float32), (1,) * 6, {}, "rank", 6),
    (np.zeros((), np.float32), (), {}, "rank", 0),
    (GRID, (16,), {}, "box", (16,)),
    (GRID, (16, 32), {"element_strides": (1,)}, "element_strides", (1,)),
    (GRID, (0, 32), {}, "box", 0),
    (GRID, (257, 32), {}, "box", 257),
    (GRID, (16, 3), {}, "inner_box_bytes", 12),
    (GRID, (16, 32), {"element_strides": (9, 1)}, "element_strides", 9),
    (GRID, (16, 32), {"element_strides": (0, 1)}, "element_strides", 0),
    (GRID, (16, 32), {"swizzle": "16B"}, "swizzle", "16B"),
    (GRID, (16, 32), {"swizzle": "64B"}, "swizzle_span", 128),
    (GRID, (16, 32), {"oob_fill": "one"}, "oob_fill", "one"),
    (np.zeros((64, 64), np.int32), (16, 32), {"oob_fill": "nan"}, "oob_fill", "nan"),
    (GRID, (16, 32), {"l2_promotion": "512B"}, "l2_promotion", "512B"),
    (GRID, (16, 32), {"interleave": "32B"}, "interleave", "32B"),
    (np.zeros((10, 10), np.float32), (4, 4), {}, "global_stride", 40),
    (GRID[:, ::2], (16, 8), {}, "inner_stride", 8),
    (np.zeros((8, 8), np.complex64), (4, 4), {}, "dtype", "complex64"),
    (GRID, (16, 32), {"dtype": np.float16}, "dtype", "float16"),
    (GRID, "ab", {}, "box", "ab"),
    (object(), (1,), {}, "array", "object"),
    (CudaArray((64, 64), address=(1 << 20) + 8), (16, 32), {}, "global_address", (1 << 20) + 8),
    (CudaArray((64, 64), strides=(256, 4 * 2 ** 38)), (16, 32), {}, "inner_stride", 4 * 2 ** 38),
    (CudaArray((4, 64), strides=(2 ** 40, 4)), (4, 32), {}, "global_stride", 2 ** 40),
    (CudaArray((0, 64)), (1, 32), {}, "global_dim", 0),
])
def test_each_rule_is_a_typed_error(array, box, kw, rule, value):
    assert rule_of(array, box, **kw) == (rule, value)


def test_errors_say_which_rule_and_value():
    with pytest.raises(TensorMapError, match=r"innermost box extent is 256 bytes \(64 x 4\), more than the 64B swizzle"):
        TensorMap(GRID, (16, 64), swizzle="64B")


def test_bf16_bits_may_be_named():
    m = TensorMap(np.zeros((8, 64), np.uint16), (8, 64), dtype="bfloat16", swizzle="128B")
    assert (m.dtype, m.itemsize) == ("bfloat16", 2)


def test_strided_device_view_keeps_its_strides():
    m = TensorMap(CudaArray((32, 64), strides=(512, 4)), (8, 64), swizzle="none")
    assert m.strides == (512, 4) and not m.on_host


def test_host_map_has_no_descriptor():
    with pytest.raises(TensorMapError, match="runs on the emulator only") as info:
        TensorMap(GRID, (16, 32)).descriptor()
    assert info.value.rule == "device_array"


def fake_driver(calls: list):
    """A driver stand-in: enums are their member names, encoding records its arguments."""

    class Enum:
        def __init__(self, kind):
            self.kind = kind

        def __getattr__(self, name):
            return name

    def encode(*args):
        calls.append(args)
        return ("ok", types.SimpleNamespace(opaque=list(range(16))))

    names = ("CUtensorMapDataType", "CUtensorMapInterleave", "CUtensorMapSwizzle", "CUtensorMapL2promotion",
             "CUtensorMapFloatOOBfill")
    # The real bindings refuse Python ints for the sizes: they take their own cuuint32_t / cuuint64_t objects.
    return types.SimpleNamespace(cuTensorMapEncodeTiled=encode, cuuint32_t=lambda v: ("u32", v),
                                 cuuint64_t=lambda v: ("u64", v), **{n: Enum(n) for n in names})


def test_encoding_is_innermost_first_lazy_and_cached(monkeypatch):
    calls: list = []
    monkeypatch.setattr(tm, "cuda", lambda: fake_driver(calls))
    monkeypatch.setattr(tm, "check", lambda result, what: result[1])
    m = TensorMap(CudaArray((3, 32, 64), typestr="<u2", strides=(8192, 128, 2)), (2, 8, 64), dtype="bfloat16",
                  element_strides=(1, 2, 1), swizzle="128B", oob_fill="nan", l2_promotion="256B")
    assert not calls
    first = m.descriptor()
    assert m.descriptor() is first and len(calls) == 1
    assert first == b"".join(i.to_bytes(8, "little") for i in range(16))
    u32 = lambda *vs: [("u32", v) for v in vs]  # noqa: E731
    u64 = lambda *vs: [("u64", v) for v in vs]  # noqa: E731
    assert calls[0] == ("CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", ("u32", 3), 1 << 20, u64(64, 32, 3), u64(128, 8192),
                        u32(64, 8, 2), u32(1, 2, 1), "CU_TENSOR_MAP_INTERLEAVE_NONE", "CU_TENSOR_MAP_SWIZZLE_128B",
                        "CU_TENSOR_MAP_L2_PROMOTION_L2_256B", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA")


def test_signature_kind_and_abi():
    spec = param_spec("map", "*const TmaDescriptor", ["!simt.tensor_map"])
    assert (spec.kind, spec.abi) == ("tensor_map", ["tensor_map"])
    again = KernelSpec.from_json(KernelSpec("k", "k", [spec]).to_json())
    assert again.params[0].kind == "tensor_map"


KERNEL = KernelSpec("k", "k", [ParamSpec("n", "u32", "scalar", "u32"),
                               param_spec("map", "*const TmaDescriptor", ["!simt.tensor_map"]),
                               ParamSpec("x", "i32", "scalar", "i32")])


def test_emulator_binds_the_map_itself():
    m = TensorMap(GRID, (16, 32))
    bound = Binder(KERNEL, gpu=False).bind([1, m, 2], allow_host=True)
    assert bound.abi[1] is m and bound.buffers[0].mutable and bound.buffers[0].nbytes == GRID.nbytes


def test_binder_refuses_what_is_not_a_map():
    with pytest.raises(KernelArgumentError, match=r"argument `map: \*const TmaDescriptor`: expected an "
                                                  r"oxide.runtime.TensorMap"):
        Binder(KERNEL, gpu=False).bind([1, GRID, 2], allow_host=True)
    assert "takes a TensorMap" in Binder(KERNEL, gpu=False).mismatch([1, GRID, 2])


def test_emulator_refuses_a_map_of_a_gpu_array():
    with pytest.raises(KernelArgumentError, match="a tensor map of a GPU array cannot be used by the emulator"):
        Binder(KERNEL, gpu=False).bind([1, TensorMap(CudaArray((64, 64)), (16, 32)), 2], allow_host=True)


def test_gpu_binder_refuses_a_host_map():
    with pytest.raises(KernelArgumentError, match="runs on the emulator only"):
        Binder(KERNEL, gpu=True).bind([1, TensorMap(GRID, (16, 32)), 2], allow_host=True)


def test_parameter_block_holds_the_128_bytes():
    block = ParameterBlock(KERNEL)
    descriptor = bytes(range(128))
    block.pack([7, descriptor, -3])
    raw = ctypes.string_at(ctypes.addressof(block.block), ctypes.sizeof(block.block))
    assert raw[block.offsets[1]:block.offsets[1] + 128] == descriptor
    assert int.from_bytes(raw[block.offsets[2]:block.offsets[2] + 4], "little", signed=True) == -3
