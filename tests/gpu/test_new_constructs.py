"""Rust constructs added for the cuda-oxide yardstick, on the GPU against the emulator: pointers to locals
(`addr_of!`) and into local arrays (`as_ptr`), `core::cmp::Ordering`, `macro_rules!`, empty arrays,
`while let` and `grid_stride_runs32`, slices of shared memory. Each kernel is the emulator-checked one of
its unit test (tests/unit/frontends/simt/test_<family>.py, or syntax/ for macro_rules), run with the same
inputs on both targets; every buffer must come back identical. Without a GPU these tests skip."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

# The unit tests the kernels come from: the SIMT frontend's, and the syntax floor's (macro_rules).
UNITS = [Path(__file__).resolve().parents[1] / "unit" / "frontends" / floor for floor in ("simt", "syntax")]
RNG = np.random.default_rng(41)


def _source(family: str, name: str) -> str:
    """The kernel source `name` of test_<family>.py in UNITS, read without importing the module
    (it imports the compiler, which the GPU machine does not have): string constants joined with `+`."""
    assigned: dict[str, str] = {}

    def value(node: ast.expr) -> str:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return assigned[node.id]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return value(node.left) + value(node.right)
        raise ValueError(f"{family}.{name}: not a string expression")

    path = next(unit / f"test_{family}.py" for unit in UNITS if (unit / f"test_{family}.py").is_file())
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                assigned[node.targets[0].id] = value(node.value)
            except (ValueError, KeyError):
                continue
    return assigned[name]


def _ordering_inputs() -> list:
    xs = RNG.integers(-300, 300, 65).astype(np.int32)
    xs[8:16] = xs[9:17]
    fs = RNG.standard_normal(65).astype(np.float32)
    fs[5], fs[21] = np.nan, fs[22]
    return [xs, fs, np.zeros(64, np.int32)]


# name: (source, entry, grid, block, inputs)
CASES: dict[str, tuple[str, str, tuple, tuple, Callable[[], list]]] = {
    "addr_of_locals": (_source("cell_pointers", "_SRC"), "k", (1,), (64,),
                       lambda: [RNG.random(64, dtype=np.float32) + np.float32(0.5), np.zeros(64, np.float32)]),
    "both_local_pointers": (_source("cell_pointers", "_BOTH"), "k", (1,), (64,),
                            lambda: [np.zeros(64, np.uint32)]),
    "array_pointers": (_source("local_pointers", "_SCALARS"), "k", (1,), (32,), lambda: [np.zeros(32, np.uint32)]),
    "ordering": (_source("ordering", "_SRC"), "k", (1,), (64,), _ordering_inputs),
    "macro_rules": (_source("macro_rules", "_SRC"), "k", (1,), (10,), lambda: [np.zeros(10, np.uint32)]),
    "macro_repetitions": (_source("macro_rules", "_REPEAT"), "k", (1,), (6,), lambda: [np.zeros(6, np.uint32)]),
    "macro_expressions": (_source("macro_rules", "_EXPR"), "k", (1,), (4,), lambda: [np.zeros(4, np.uint32)]),
    "empty_arrays": (_source("empty_arrays", "_SRC"), "k", (1,), (4,),
                     lambda: [np.uint32(0), np.zeros(4, np.uint32)]),
    "while_let": (_source("grid_stride_runs", "_WHILE_LET"), "k", (1,), (32,), lambda: [np.zeros(32, np.uint32)]),
    "grid_stride_runs": (_source("grid_stride_runs", "_RUNS"), "k", (2,), (8,),
                         lambda: [np.arange(150, dtype=np.float32), np.full(16, 99, np.uint32)]),
    "shared_memory_slices": (_source("ptr_slices", "_READS"), "k", (1,), (16,),
                             lambda: [np.arange(1, 17, dtype=np.uint32), 3, np.zeros(16, np.uint32)]),
    "shared_array_as_slice": (_source("shared_slices", "_WHOLE"), "k", (1,), (32,),
                              lambda: [RNG.standard_normal(32).astype(np.float32), np.zeros(32, np.float32)]),
}


def _run(module: Any, entry: str, grid: tuple, block: tuple, args: list) -> list:
    getattr(module, entry).unchecked[grid, block](*args)
    return [a for a in args if isinstance(a, np.ndarray)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_matches_the_emulator(cuda, tmp_path, name):
    import oxide

    source, entry, grid, block, inputs = CASES[name]
    path = tmp_path / f"{name}.rs"
    path.write_text(source)
    args = inputs()
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    on_gpu = _run(oxide.load(path, target="gpu"), entry, grid, block, copies)
    on_emulator = _run(oxide.load(path, target="cpu"), entry, grid, block, args)
    for got, want in zip(on_gpu, on_emulator):
        np.testing.assert_array_equal(got, want)
