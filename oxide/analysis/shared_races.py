"""Shared-memory races between two barriers: two threads of a block touch the same element of a shared array,
at least one of them writes, and no `sync_threads()` orders the two accesses.

For each pair of accesses that can run in the same barrier interval (kernel_walk.py's intervals and loop
links), the check looks for two distinct threads and values of the symbols involved under which both path
conditions hold and both index expressions are equal. The search is exhaustive over the block's threads
and over loop counters with known bounds, and samples other symbols (kernel parameters, loaded values)
from small, boundary-heavy candidate sets: a conflict it finds is real for those values, and a conflict it

does not find is not proven absent (see the safety page in README).

A conflict is *proven* when the block shape comes from the launch contract and neither side depends on a
sampled symbol or on a condition the analysis cannot read: every launch of the kernel races. Otherwise it
is a conflict that happens for the values shown, reported as a warning.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from oxide.analysis.affine import THREAD_VARS, Affine, All, cond_vars, evaluate_cond, has_opaque, rename_cond
from oxide.analysis.kernel_facts import KernelFacts, SharedAccess, thread_grid
from oxide.ir.diagnostics import source_loc

# Symbols with no known value set are tried at these values (loop strides, tile sizes, bounds near a block).
SAMPLES = (0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 127, 128, 255, 256, 1023, 1024, 1 << 20)
# Blocks assumed for kernels without an exact contract block, by the thread axes they use.
DEFAULT_BLOCKS = {1: (256, 1, 1), 2: (16, 16, 1), 3: (8, 8, 4)}
# Work bounds: candidate evaluations per pair of accesses, and symbol combinations tried.
_MAX_CELLS = 1 << 22
_MAX_COMBOS = 256


@dataclass(frozen=True)
class Conflict:
    """Two accesses that can touch one element from two threads in one barrier interval."""

    first: SharedAccess
    second: SharedAccess
    threads: tuple[tuple[int, int, int], tuple[int, int, int]]
    element: int
    symbols: tuple[tuple[str, int], ...]
    proven: bool

    def message(self, facts: KernelFacts) -> str:
        """One sentence naming both threads, both accesses and the element."""
        a, b = self.first, self.second
        verb = {True: "writes", False: "reads"}
        when = ""
        if self.symbols:
            values = dict(self.symbols)
            described = []
            for name, value in self.symbols:
                what = facts.symbols[base_symbol(name)].describe
                if name.endswith("'"):
                    continue
                if name + "'" in values:
                    described.append(f"{what} is {value} in the first thread's iteration and "
                                     f"{values[name + chr(39)]} in the second's")
                else:
                    described.append(f"{what} is {value}")
            when = f" (when {', '.join(described)})"
        kind = "write/write" if a.write and b.write else "write/read"
        first = f"thread {_coord(self.threads[0])} {verb[a.write]} element {self.element} here"
        second = f"thread {_coord(self.threads[1])} {verb[b.write]} it"
        where = _where(a, b)
        return (f"shared-memory {kind} race on {a.array_name}: {first} while {second}"
                f"{' at ' + where if where else ' too'}, with no `sync_threads()` in between{when}")


def _coord(t: tuple[int, int, int]) -> str:
    return f"({t[0]}, {t[1]}, {t[2]})"


def _where(a: SharedAccess, b: SharedAccess) -> str:
    """Where `b` is, relative to `a`: '' for the same op, `line:col` in the same file, else `file:line:col`."""
    here, there = source_loc(a.location), source_loc(b.location)
    if there is None or here == there:
        return ""
    return f"{there.line}:{there.col}" if here is not None and here.file == there.file else str(there)


def find_races(facts: KernelFacts) -> list[Conflict]:
    """Every pair of conflicting shared accesses the search finds (at most one conflict per pair)."""
    found: list[Conflict] = []
    accesses = [a for a in facts.accesses if a.index is not None]
    for i, a in enumerate(accesses):
        for b in accesses[i:]:
            if a.array != b.array or not (a.write or b.write):
                continue
            renamed = _concurrent(facts, a, b)
            if renamed is None:
                continue
            conflict = _search(facts, a, b, renamed)
            if conflict is not None:
                found.append(conflict)
    return found


def _concurrent(facts: KernelFacts, a: SharedAccess, b: SharedAccess) -> set[int] | None:
    """The loops whose counters differ between the two sides when `a` and `b` can run in one barrier
    interval (different iterations of a barrier-free loop, or a loop's tail against its next head), or
    None when a barrier always separates them."""
    common = {x for x, y in zip(a.loops, b.loops) if x == y}
    differing = common & facts.barrier_free_loops
    if a.interval == b.interval:
        return differing
    for first, second, loop in facts.links:
        if {first, second} == {a.interval, b.interval}:
            return differing | ({loop} if loop in common else set())
    return None


def _search(facts: KernelFacts, a: SharedAccess, b: SharedAccess, differing: set[int]) -> Conflict | None:
    # The second thread sees its own copy of every symbol created in a loop whose iterations differ.
    mapping = {name: name + "'" for name, sym in facts.symbols.items() if differing & set(sym.loops)}
    assert a.index is not None and b.index is not None  # find_races pairs only accesses with affine indices
    index_a, index_b = a.index, b.index.rename(mapping)
    guard_b = rename_cond(b.guard, mapping)
    mentioned = index_a.symbols() | index_b.symbols() | cond_vars(a.guard) | cond_vars(guard_b)
    symbols = sorted(mentioned - set(THREAD_VARS))
    used_vars = mentioned | {t for t, _ in index_a.terms} | {t for t, _ in index_b.terms}
    axes = {v for v in THREAD_VARS if v in used_vars}
    block = facts.block or DEFAULT_BLOCKS[max([1] + [THREAD_VARS.index(v) + 1 for v in axes])]
    threads = thread_grid(block)
    count = len(threads["tid.x"])
    if count < 2:
        return None
    index_symbols = sorted(index_a.symbols() | index_b.symbols())
    guard_symbols = [name for name in symbols if name not in index_symbols]
    sampled = any(facts.symbols[base_symbol(name)].values is None for name in symbols)
    same_warp_only = a.interval == b.interval and a.warp_interval != b.warp_interval
    # First where the two indices meet (they depend on few symbols), then the path conditions there only.
    for index_combo in itertools.islice(itertools.product(*(_values(facts, n) for n in index_symbols)), _MAX_COMBOS):
        fixed = {name: np.int64(value) for name, value in zip(index_symbols, index_combo)}
        first, second = _meeting_threads(index_a, index_b, threads, fixed, count)
        keep = first != second
        if same_warp_only:
            # A warp barrier between them orders lanes of one warp; other warps still race.
            keep &= (first // 32) != (second // 32)
        first, second = first[keep], second[keep]
        if not len(first):
            continue
        env1 = {v: threads[v][first] for v in THREAD_VARS}
        env2 = {v: threads[v][second] for v in THREAD_VARS}
        guard_combos = itertools.product(*(_values(facts, n) for n in guard_symbols))
        for guard_combo in itertools.islice(guard_combos, _MAX_COMBOS):
            values = {**fixed, **{n: np.int64(x) for n, x in zip(guard_symbols, guard_combo)}}
            shape = (len(first),)
            hit = evaluate_cond(a.guard, {**env1, **values}, shape) & evaluate_cond(guard_b, {**env2, **values}, shape)
            if hit.any():
                k = int(np.flatnonzero(hit)[0])
                t1 = tuple(int(threads[v][first[k]]) for v in THREAD_VARS)
                t2 = tuple(int(threads[v][second[k]]) for v in THREAD_VARS)
                first_thread = {v: np.int64(x) for v, x in zip(THREAD_VARS, t1)}
                element = int(index_a.evaluate({**first_thread, **values}))
                proven = facts.block is not None and not sampled and not has_opaque(All((a.guard, guard_b)))
                mentioned = _mentioned(a, b)
                shown = tuple((n, int(x)) for n, x in values.items() if base_symbol(n) in mentioned)
                return Conflict(a, b, (t1, t2), element, tuple(sorted(shown)), proven)
    return None


def _meeting_threads(index_a: Affine, index_b: Affine, threads: dict[str, np.ndarray], fixed: dict[str, np.int64],
                     count: int) -> tuple[np.ndarray, np.ndarray]:
    """All (first thread, second thread) linear-id pairs whose indices are equal, as two arrays."""
    env = {**threads, **fixed}
    va, vb = index_a.evaluate(env), index_b.evaluate(env)
    va = np.broadcast_to(va, (count,))
    vb = np.broadcast_to(vb, (count,))
    # Sort the second side once and find, for each first thread, the run of equal indices.
    order = np.argsort(vb, kind="stable")
    sorted_b = vb[order]
    lo = np.searchsorted(sorted_b, va, side="left")
    hi = np.searchsorted(sorted_b, va, side="right")
    runs = hi - lo
    if not runs.any():
        return np.empty(0, np.int64), np.empty(0, np.int64)
    total = int(runs.sum())
    if total > _MAX_CELLS:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    first = np.repeat(np.arange(count), runs)
    starts = np.repeat(lo, runs)
    offsets = np.arange(total) - np.repeat(np.cumsum(runs) - runs, runs)
    second = order[starts + offsets]
    return first.astype(np.int64), second.astype(np.int64)


def _mentioned(a: SharedAccess, b: SharedAccess) -> set[str]:
    names = set()
    for access in (a, b):
        assert access.index is not None
        names |= access.index.symbols() | (cond_vars(access.guard) - set(THREAD_VARS))
    return names


def _values(facts: KernelFacts, name: str) -> tuple[int, ...]:
    known = facts.symbols[base_symbol(name)].values
    if known is None:
        return SAMPLES
    if len(known) <= 16:
        return known
    # Long counters: both ends and a spread in between are enough to meet most index patterns.
    picks = sorted(set(known[:4]) | set(known[-4:]) | set(known[:: max(1, len(known) // 8)]))
    return tuple(picks)


def base_symbol(name: str) -> str:
    """The symbol a renamed copy (`s3'`, the second thread's iteration of a loop) stands for."""
    return name.rstrip("'")
