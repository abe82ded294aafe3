"""The emulator agrees with the frontend's reference interpreter (tests/unit/frontends/simt/simt_interp.py)
on every kernel the construct tests run: the same outputs, and a failure (trap, out of bounds) exactly where
the interpreter has one."""

from __future__ import annotations

import copy
import inspect
from typing import Any

import numpy as np
import pytest

import tests.unit.frontends.simt.test_constructs as constructs
from oxide.backend.emulator import emit_program
from oxide.runtime.emulator import EmulatorError, launch, load_program

RUNNING_TESTS = [fn for name, fn in sorted(vars(constructs).items())
                 if name.startswith("test_") and inspect.isfunction(fn) and not inspect.signature(fn).parameters
                 and ("run(" in inspect.getsource(fn) or "run_kernel(" in inspect.getsource(fn))]


def _array(values: list[Any], dtype: str) -> np.ndarray:
    if dtype.startswith("float"):
        return np.array([0.0 if v is None else v for v in values], dtype)
    unsigned = np.dtype(f"u{np.dtype(dtype).itemsize}")
    bits = unsigned.itemsize * 8
    return np.array([int(v or 0) & ((1 << bits) - 1) for v in values], np.uint64).astype(unsigned).view(dtype)


def _same(reference: list[Any], emulated: np.ndarray) -> bool:
    if emulated.dtype.kind == "f":
        return np.allclose(np.array(reference, np.float64), emulated.astype(np.float64), equal_nan=True)
    bits = emulated.dtype.itemsize * 8
    unsigned = emulated.view(f"u{emulated.dtype.itemsize}")
    return [int(v) & ((1 << bits) - 1) for v in reference] == [int(v) for v in unsigned]


@pytest.mark.parametrize("construct_test", RUNNING_TESTS, ids=[fn.__name__ for fn in RUNNING_TESTS])
def test_emulator_agrees_with_the_reference_interpreter(construct_test, monkeypatch):
    interpret = constructs.run_kernel
    compared = []

    def both(result: Any, args: list[Any], entry: str | None = None, **where: int) -> None:
        inputs = copy.deepcopy(args)
        program = emit_program(result.module)
        name = entry or next(iter(load_program(program)["KERNELS"]))
        params = load_program(program)["KERNELS"][name]["params"]
        emulated = [value if kind == "scalar" else _array(value, dtype)
                    for (kind, dtype), value in zip(params, inputs)]
        try:
            launch(program, name, (where.get("block", 0) + 1,), (where.get("block_dim", 1),), emulated,
                   check_races=False)
            emulator_failed = None
        except EmulatorError as exc:
            emulator_failed = exc
        try:
            interpret(result, args, entry, **where)
        except constructs.Trap:
            assert emulator_failed is not None, "the interpreter trapped, the emulator did not"
            compared.append(name)
            raise
        assert emulator_failed is None, f"the emulator failed where the interpreter did not: {emulator_failed}"
        for (kind, _), reference, value in zip(params, args, emulated):
            if kind != "scalar":
                assert _same(reference, value), f"{name}: interpreter {reference}, emulator {list(value)}"
        compared.append(name)

    monkeypatch.setattr(constructs, "run_kernel", both)
    construct_test()
    assert compared
