"""Relaunching a tile kernel on the same arguments, on the GPU path against the fake driver: a stream-ordered
launch whose arguments' key repeats enqueues the parameters packed at its first launch (gpu.PackedLaunch), each
binding in a block of its own, so bindings that alternate keep their own values; a prepared launch packs once;
a generic kernel remembers the instance each key chose."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.artifact import Artifact
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.module import load
from oxide.runtime.signature import KernelSpec, param_spec
from oxide.runtime.stream import Stream
from tests.unit.runtime.emulator.tile.helpers import module, out, program
from tests.unit.runtime.tile_artifacts import ADD_BODY, ADD_PARAMS, _ptx, write


def _params(z, x, y, s):
    return [z.ptr, z.size, 1, x.ptr, x.size, 1, y.ptr, y.size, 1, s]


def test_alternating_bindings_each_launch_with_their_own_parameters(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x, y, w = (mod.to_device(np.zeros(300, np.float32)) for _ in range(4))
    stream = Stream(mod.device)
    part = oxide.tile.partition(z, (128,))
    for _ in range(2):
        mod.add[3, stream](part, x, y, 2.5)
        mod.add[3, stream](part, y, w, 0.5)
        mod.add[3, stream](part, x, w, 2.5)
    expected = [_params(z, x, y, 2.5), _params(z, y, w, 0.5), _params(z, x, w, 2.5)] * 2
    assert [launch["params"] for launch in fake.launches] == expected
    assert all(launch["stream"] == stream.handle and launch["grid"] == (3, 1, 1) for launch in fake.launches)
    stream.close()


def test_a_prepared_launch_keeps_its_parameters_between_other_launches(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x, y = (mod.to_device(np.zeros(300, np.float32)) for _ in range(3))
    stream = Stream(mod.device)
    again = mod.add.prepare(oxide.tile.partition(z, (128,)), x, y, 1.5, stream=stream)
    again()
    mod.add(oxide.tile.partition(z, (128,)), y, x, 4.0)  # a synchronous launch of the same kernel between
    again()
    params = [launch["params"] for launch in fake.launches]
    assert params == [_params(z, x, y, 1.5), _params(z, y, x, 4.0), _params(z, x, y, 1.5)]
    stream.close()


def _two_tile_shapes(tmp_path):
    """Generic `add` with instances for 128- and 64-element output tiles (the second fits what the first
    refuses)."""
    specs = []
    for tile in (128, 64):
        params = [("z", f"&mut Tensor<f32, {{[{tile}]}}>", out("f32", tile))] + ADD_PARAMS[1:]
        specs.append(KernelSpec("add", f"add_{tile}", [param_spec(p, rust, [mlir]) for p, rust, mlir in params],
                                tile={"warps": 4}))
    ptx = "".join(_ptx(kernel) if i == 0 else _ptx(kernel).split("\n", 3)[3] for i, kernel in enumerate(specs))
    # The emulator program is not run here; it only has to exist (one kernel of the add body).
    text = module(", ".join(f"%{p}: {mlir}" for p, _, mlir in ADD_PARAMS), ADD_BODY, "add_128")
    Artifact("add", specs, {"sm_90": ptx}, program(text)).write(tmp_path)
    return load(tmp_path, target="gpu")


def test_a_generic_kernel_remembers_the_instance_per_key(fake, tmp_path, monkeypatch):
    mod = _two_tile_shapes(tmp_path)
    z, x, y = (mod.to_device(np.zeros(256, np.float32)) for _ in range(3))
    stream = Stream(mod.device)
    instances = mod.add.instances
    checks = []
    for kernel in instances:
        mismatch = kernel.binder.mismatch
        monkeypatch.setattr(kernel.binder, "mismatch", lambda args, m=mismatch: checks.append(1) or m(args))
    by64 = oxide.tile.partition(z, (64,))
    for _ in range(3):
        mod.add[by64.grid, stream](by64, x, y, 1.0)
    assert len(checks) == 2  # the 128-element instance refused, the 64-element one fit: once
    by128 = oxide.tile.partition(z, (128,))
    mod.add[by128.grid, stream](by128, x, y, 1.0)
    assert [launch["entry"] for launch in fake.launches] == ["add_64"] * 3 + ["add_128"]
    assert fake.launches[-1]["grid"] == (2, 1, 1) and fake.launches[0]["grid"] == (4, 1, 1)
    with pytest.raises(KernelArgumentError, match="no instance of generic kernel `add`"):
        mod.add[1, stream](oxide.tile.partition(z, (32,)), x, y, 1.0)
    with pytest.raises(KernelArgumentError, match="no instance of generic kernel `add`"):
        mod.add[1, stream](oxide.tile.partition(z, (32,)), x, y, 1.0)  # a refusal is never remembered
    stream.close()
