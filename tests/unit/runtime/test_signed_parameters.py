"""Signed integers in the PTX parameter block, against the fake driver: negative generic `T` scalars of every
width, negative struct/tuple/array fields, signless fields given their unsigned spelling, both launch paths,
and the errors for values no parameter can hold (KernelArgumentError naming the kernel and the parameter)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxide.runtime import KernelArgumentError
from oxide.runtime.gpu import ParameterBlock
from oxide.runtime.module import load
from oxide.runtime.signature import KernelSpec, ParamSpec

SOURCE = Path(__file__).resolve().parents[2] / "gpu" / "kernels" / "signed_params.rs"
WIDTHS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _bits(value: int, width: int) -> int:
    """What the driver reads: the two's complement bits of `value`, as an unsigned integer."""
    return value & ((1 << width) - 1)


@pytest.fixture(scope="module")
def artifact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import oxide

    out = tmp_path_factory.mktemp("signed")
    oxide.build(SOURCE, out_dir=out, chips=["sm_90"], instances={"clamp_fma": [[t] for t in WIDTHS]})
    return out


@pytest.mark.parametrize("elem", sorted(WIDTHS))
def test_negative_generic_scalars_pack_as_their_bits(fake, artifact, elem):
    module = load(artifact, target="gpu")
    dtype = np.dtype(elem.replace("i", "int"))
    a = module.to_device(np.ones(4, dtype))
    low = -(1 << (WIDTHS[elem] - 1))
    module.clamp_fma.unchecked[1, 4](a, a, a, dtype.type(-20), -1, module.zeros(4, dtype))
    module.clamp_fma.unchecked[1, 4](a, a, a, low, dtype.type(low), module.zeros(4, dtype))
    first, second = (launch["params"] for launch in fake.launches)
    assert first[6:8] == [_bits(-20, WIDTHS[elem]), _bits(-1, WIDTHS[elem])]
    assert second[6:8] == [_bits(low, WIDTHS[elem])] * 2


def test_struct_tuple_and_array_fields_keep_their_sign(fake, artifact):
    module = load(artifact, target="gpu")
    out = module.zeros(8, np.int64)
    module.by_value.unchecked[1, 8]((-128, -32768, -2 ** 31, -2 ** 63), (-2, -5), (-1, 255, -3, 2 ** 32 - 1), out)
    params = fake.launches[0]["params"]
    assert params[:4] == [0x80, 0x8000, 0x8000_0000, 0x8000_0000_0000_0000]
    assert params[4:6] == [_bits(-2, 16), _bits(-5, 64)]
    # Struct fields are signless in the signature: either sign's spelling of the same bits is accepted.
    assert params[6:10] == [_bits(-1, 32), 255, _bits(-3, 32), _bits(-1, 32)]


def test_fast_and_general_paths_agree_on_negative_scalars(fake, artifact):
    module = load(artifact, target="gpu")
    x, out = module.to_device(np.arange(4, dtype=np.int32)), module.zeros(4, np.int64)
    module.shifted[1, 4](x, -7, -3, out)  # exact Python ints and device buffers: the generated fast path
    module.shifted[1, 4](x, np.int32(-7), np.int64(-3), out)  # numpy scalars: the checked path
    fast, general = (launch["params"] for launch in fake.launches)
    assert fast == general and fast[2:4] == [_bits(-7, 32), _bits(-3, 64)]


@pytest.mark.parametrize("value, message", [
    (2 ** 31, r"2147483648 does not fit in i32"),
    (-2 ** 31 - 1, r"-2147483649 does not fit in i32"),
])
def test_out_of_range_scalars_name_kernel_and_parameter(fake, artifact, value, message):
    module = load(artifact, target="gpu")
    x, out = module.to_device(np.arange(4, dtype=np.int32)), module.zeros(4, np.int64)
    with pytest.raises(KernelArgumentError, match=r"kernel `shifted`, argument `d: i32`: " + message):
        module.shifted[1, 4](x, value, 1, out)
    assert not fake.launches


def test_struct_field_out_of_both_ranges_is_refused(fake, artifact):
    module = load(artifact, target="gpu")
    with pytest.raises(KernelArgumentError, match=r"kernel `by_value`, argument `s: Bounds`: field 0: 256 does not fit"):
        module.by_value.unchecked[1, 8]((256, 0, 0, 0), (0, 0), (0, 0, 0, 0), module.zeros(8, np.int64))


def test_parameter_block_names_the_parameter_a_value_does_not_fit():
    spec = KernelSpec("k", "k", [ParamSpec("n", "u32", "scalar", "u32"), ParamSpec("d", "i16", "scalar", "i16")])
    block = ParameterBlock(spec)
    block.pack([7, -3])
    assert (block.block.p0, block.block.p1) == (7, -3)
    with pytest.raises(KernelArgumentError, match=r"kernel `k`, argument `d: i16`: 40000 cannot be passed as a "
                                                  r"PTX \.s16 parameter"):
        block.pack([7, 40000])


@pytest.mark.parametrize("address", [-1, 2 ** 64])
def test_raw_device_address_outside_64_bits_is_refused(address):
    from oxide.runtime.marshal import Binder

    spec = KernelSpec("k", "k", [ParamSpec("p", "*mut f32", "ptr", "f32", mutable=True)])
    with pytest.raises(KernelArgumentError, match=r"kernel `k`, argument `p: \*mut f32`: a raw device address "
                                                  r"must be in 0\.\.2\*\*64"):
        Binder(spec, gpu=True).bind([address], allow_host=True)
