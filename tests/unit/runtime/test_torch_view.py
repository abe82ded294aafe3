"""CUDA torch tensors are read through their own accessors (no torch needed here: a stand-in class named
`torch.Tensor` with the same methods)."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.memory import device_view


class Tensor:
    """The accessors device_view reads from a torch tensor."""

    def __init__(self, dtype: str, shape: tuple[int, ...], contiguous: bool = True, cuda: bool = True):
        self.dtype, self.shape, self._contiguous, self.is_cuda = dtype, shape, contiguous, cuda

    def numel(self) -> int:
        return int(np.prod(self.shape))

    def is_contiguous(self) -> bool:
        return self._contiguous

    def data_ptr(self) -> int:
        return 0x7F0000001000

    def stride(self) -> tuple[int, ...]:
        return (1, self.shape[0]) if not self._contiguous else (self.shape[1], 1)

    @property
    def __cuda_array_interface__(self) -> dict:
        raise AssertionError("the CUDA array interface must not be read for a torch tensor")


Tensor.__module__ = "torch"


@pytest.mark.parametrize("dtype, expected", [("torch.float32", np.float32), ("torch.bfloat16", np.uint16),
                                             ("torch.int64", np.int64), ("torch.bool", np.bool_)])
def test_cuda_tensors_are_read_through_their_accessors(dtype, expected):
    view = device_view(Tensor(dtype, (4, 8)))
    assert (view.ptr, view.dtype, view.size, view.shape) == (0x7F0000001000, np.dtype(expected), 32, (4, 8))


def test_non_contiguous_tensors_are_refused():
    with pytest.raises(KernelArgumentError, match="not C-contiguous"):
        device_view(Tensor("torch.float32", (4, 8), contiguous=False))


def test_a_strided_view_carries_the_tensors_element_strides():
    # What the tile runtime asks for: a transposed tensor's strides, no copy.
    view = device_view(Tensor("torch.float32", (4, 8), contiguous=False), strided=True)
    assert (view.ptr, view.shape, view.strides) == (0x7F0000001000, (4, 8), (1, 4))
    assert device_view(Tensor("torch.float32", (4, 8)), strided=True).strides is None
