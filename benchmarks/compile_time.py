"""Where a kernel's compile time goes: .rs to PTX, in process (Python start-up not counted), per stage.

    python benchmarks/compile_time.py                 # the tile GEMM (sm_80, sm_90a) and two SIMT examples
    python benchmarks/compile_time.py --only gemm_sm90a --repeat 5 --profile
    python benchmarks/compile_time.py --only gemm_sm90 --opt-level 3   # another LLVM level than the default

For each case it prints the whole compile as users run it (`oxide.compile_file`, isolation included; CPU
counts the forked child's), a cached rebuild (`oxide.build` hitting the artifact cache), and then every stage
run alone in this process: the frontend (tree-sitter parse, then checks and emission), each pass of the
pipeline the backend runs (oxide.backend.ptx.serialize_pipeline), and gpu-module-to-binary split into the
LLVM translation, LLVM's optimisation and NVPTX code generation (each the difference of two serialisations
of copies of the module: bitcode at O0, bitcode at the case's level, PTX). Times are the minimum of
`--repeat` runs, in milliseconds of CPU time (this process and its children) and of wall time; last, the
number of ops LLVM is given (a size, unlike the times, that the machine's load cannot change).
docs/compile-time.md has the breakdown before and after the work on it.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mlir import ir  # noqa: E402
from mlir.dialects import gpu  # noqa: E402

import oxide  # noqa: E402
from oxide.api import default_opt_level  # noqa: E402
from oxide.backend.passes import AttachTarget  # noqa: E402
from oxide.backend.inline_ptx_check import check_inline_ptx, inline_ptx_sites  # noqa: E402
from oxide.backend.ptx import serialize_pipeline  # noqa: E402
from oxide.dialects.context import make_context  # noqa: E402
from oxide.frontends import compile_source  # noqa: E402
from oxide.passes.pipeline import build_pass_manager  # noqa: E402
from oxide.target import Target  # noqa: E402

GEMM = {"gemm": [["128", "128", "64"]]}  # the instance tests/fixtures and benchmarks/tile build
# name: (source, chip, instances)
CASES: dict[str, tuple[str, str, dict[str, list[list[str]]] | None]] = {
    "gemm_sm80": ("examples/tile/gemm.rs", "sm_80", GEMM),
    "gemm_sm90": ("examples/tile/gemm.rs", "sm_90", GEMM),  # the default target: no wgmma, one mma.sync entry
    "gemm_sm90a": ("examples/tile/gemm.rs", "sm_90a", GEMM),
    "stencil_sm90a": ("examples/rust/stencil.rs", "sm_90a", None),
    "hopper_gemm_sm90a": ("examples/rust/hopper_gemm.rs", "sm_90a", None),
}


def cpu_seconds() -> float:
    """CPU time of this process and of the children it waited for (the isolation child, ptxas)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class Stages:
    """Per-stage (cpu, wall) seconds, the minimum over repeats, and the size of what LLVM is given."""

    def __init__(self) -> None:
        self.best: dict[str, tuple[float, float]] = {}
        self.ops_to_llvm = 0  # ops of the module lowered to the LLVM dialect: what every LLVM stage pays for

    def time(self, stage: str, fn: Callable[[], Any]) -> Any:
        """Run `fn`, keep its time under `stage`, return its result."""
        cpu, wall = cpu_seconds(), time.perf_counter()
        result = fn()
        self.add(stage, cpu_seconds() - cpu, time.perf_counter() - wall)
        return result

    def add(self, stage: str, cpu: float, wall: float) -> None:
        """Record one measurement of `stage`."""
        old = self.best.get(stage)
        self.best[stage] = (cpu, wall) if old is None else (min(old[0], cpu), min(old[1], wall))

    def rows(self) -> Iterator[tuple[str, float, float]]:
        """(stage, cpu ms, wall ms) in the order the stages were first seen."""
        for stage, (cpu, wall) in self.best.items():
            yield stage, cpu * 1e3, wall * 1e3


def whole(stages: Stages, source: str, target: Target, instances: Any) -> None:
    """The compile as users run it, and a rebuild that hits the artifact cache."""
    path, chip, level = ROOT / source, target.chip, target.opt_level
    compiled = stages.time("whole compile (oxide.compile_file)",
                           lambda: oxide.compile_file(path, chip, instances, opt_level=level))
    for phase in ("context", "parse", "check+emit", "emulator"):
        if phase in compiled.timings:
            stages.add(f"  of which {phase}", 0.0, compiled.timings[phase])
    with tempfile.TemporaryDirectory() as cache:
        os.environ["OXIDE_CACHE_DIR"] = cache
        oxide.build(path, chips=[chip], instances=instances, opt_level=level)
        stages.time("cached rebuild (oxide.build, cache hit)",
                    lambda: oxide.build(path, chips=[chip], instances=instances, opt_level=level))
        del os.environ["OXIDE_CACHE_DIR"]


def by_stage(stages: Stages, source: str, target: Target, instances: Any) -> None:
    """Each stage alone, in this process."""
    context = stages.time("context (dialects loaded)", make_context)
    text = (ROOT / source).read_text()
    result = stages.time("frontend (parse + checks + emission)", lambda: compile_source(text, source, context, instances))
    module = result.module
    with context:
        sites = inline_ptx_sites(module, None)
        steps = serialize_pipeline(module, target)
        for number, step in enumerate(steps[:-1], 1):  # numbered: a pass may run twice
            name = step if isinstance(step, str) else step.name
            stages.time(f"pass {number:>2} {name}", lambda: build_pass_manager([step], context).run(module.operation))
        stages.ops_to_llvm = count_ops(module.operation)
        ptx = llvm_stages(stages, module, target, context)
    stages.time(f"ptxas check of inline PTX ({len(sites)} sites)", lambda: check_inline_ptx(sites, ptx, target.chip))


def llvm_stages(stages: Stages, module: Any, target: Target, context: ir.Context) -> str:
    """gpu-module-to-binary split into translation, optimisation and code generation (by differences); the PTX."""
    copies = []

    def serialize(fmt: str, opt_level: int) -> tuple[float, float]:
        copy = module.operation.clone()
        copies.append(copy)
        steps = [AttachTarget(Target(target.chip, opt_level=opt_level)), f"gpu-module-to-binary{{format={fmt}}}"]
        build_pass_manager(steps[:1], context).run(copy)
        cpu, wall = cpu_seconds(), time.perf_counter()
        build_pass_manager(steps[1:], context).run(copy)
        return cpu_seconds() - cpu, time.perf_counter() - wall

    bitcode_o0, bitcode, ptx = serialize("llvm", 0), serialize("llvm", target.opt_level), serialize("isa", target.opt_level)
    stages.add("LLVM translation (+ libdevice link)", *bitcode_o0)
    stages.add(f"LLVM optimisation (O{target.opt_level})", bitcode[0] - bitcode_o0[0], bitcode[1] - bitcode_o0[1])
    stages.add("NVPTX code generation", ptx[0] - bitcode[0], ptx[1] - bitcode[1])
    stages.add("gpu-module-to-binary (all three)", *ptx)
    binaries = [op for op in copies[-1].regions[0].blocks[0].operations if op.operation.name == "gpu.binary"]
    objects = [gpu.ObjectAttr(op.operation.attributes["objects"][0]).object for op in binaries]
    return "\n".join(o.decode() if isinstance(o, bytes) else o for o in objects)


def count_ops(root: Any) -> int:
    """The number of ops under `root`, itself included."""
    count = 0

    def visit(op: Any) -> ir.WalkResult:
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return count


def report(name: str, stages: Stages) -> None:
    """Print one case's table."""
    print(f"\n{name}")
    print(f"  {'stage':<52} {'cpu ms':>8} {'wall ms':>8}")
    for stage, cpu, wall in stages.rows():
        print(f"  {stage:<52} {cpu:8.1f} {wall:8.1f}")
    print(f"  ops given to LLVM (the module in the LLVM dialect): {stages.ops_to_llvm}")


def profile(source: str, target: Target, instances: Any) -> None:
    """cProfile of one whole compile with isolation off (so that the Python work is in this process)."""
    os.environ["OXIDE_NO_ISOLATION"] = "1"
    profiler = cProfile.Profile()
    profiler.runcall(oxide.compile_file, ROOT / source, target.chip, instances, opt_level=target.opt_level)
    del os.environ["OXIDE_NO_ISOLATION"]
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def main() -> None:
    """Parse the arguments and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CASES), action="append", help="a case to run (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the minimum is kept")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of each case's compile")
    parser.add_argument("--opt-level", type=int, choices=range(4), default=None,
                        help="LLVM's level (oxide's -O; default: the compiler's, 1 for tile and 3 for SIMT kernels)")
    args = parser.parse_args()
    for name in args.only or list(CASES):
        source, chip, instances = CASES[name]
        # Warm up (imports, caches); its tile facts say which track's default level the compiler took.
        warm = oxide.compile_file(ROOT / source, chip, instances, opt_level=args.opt_level)
        level = default_opt_level(bool(warm.tile)) if args.opt_level is None else args.opt_level
        target = Target(chip, opt_level=level)
        stages = Stages()
        for _ in range(args.repeat):
            whole(stages, source, target, instances)
            by_stage(stages, source, target, instances)
        report(f"{name}: {source} --chip {chip} -O{level}" + (f" instances {instances}" if instances else ""),
               stages)
        if args.profile:
            profile(source, target, instances)


if __name__ == "__main__":
    main()
