"""Convergence: block barriers and full-mask warp collectives under thread-dependent control flow.

`sync_threads()` must be reached by every thread of the block, and a collective with the full mask
(`warp::shuffle_xor(v, 1)`, `warp::all(p)`, ...) by every lane of the warp; a thread that branches around
one leaves the others waiting or reading undefined values (undefined behaviour in CUDA). cuda-oxide does not
check this. Here a path condition that the walk can read is evaluated for every thread of the block (and
sampled symbol values): the barrier or collective is divergent when some threads of the block (of one warp,
for collectives) take it and others do not. A condition it cannot read but that depends on the thread is
reported as possibly divergent.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from oxide.analysis.affine import (
    THREAD_VARS, All, AnyOf, Cmp, Not, Opaque, cond_thread_dependent, cond_vars, evaluate_cond, has_opaque,
)
from oxide.analysis.kernel_facts import BLOCK_BARRIERS, GuardedEvent, KernelFacts, thread_grid
from oxide.analysis.shared_races import DEFAULT_BLOCKS, SAMPLES

_MAX_COMBOS = 256


@dataclass(frozen=True)
class Divergence:
    """A barrier or collective that some threads of its scope may skip."""

    event: GuardedEvent
    proven: bool
    taken: tuple[int, int, int] | None
    skipped: tuple[int, int, int] | None

    def message(self) -> str:
        """What is divergent, which threads disagree, and what to do."""
        barrier_name = BLOCK_BARRIERS.by_name(self.event.op_name)
        barrier = barrier_name is not None
        what = barrier_name or f"the full-mask warp collective `{self.event.op_name}`"
        scope = "block" if barrier else "warp"
        if self.taken is not None:
            who = (f"thread {_coord(self.taken)} reaches it but thread {_coord(self.skipped)} of the same {scope} "
                   "does not")
        else:
            who = "whether a thread reaches it depends on the thread"
        fix = ("move the barrier out of the condition, so every thread of the block reaches it"
               if barrier else "pass the mask of the lanes that take part, or move it out of the condition")
        return f"{what} runs under thread-dependent control flow: {who}; {fix}"


def _coord(t: tuple[int, int, int] | None) -> str:
    return f"({t[0]}, {t[1]}, {t[2]})" if t else "?"


def find_divergence(facts: KernelFacts) -> list[Divergence]:
    """Barriers and full-mask collectives that may be divergent."""
    found = []
    for event in facts.barriers:
        result = _check(facts, event, warp=False)
        if result:
            found.append(result)
    for event in facts.warp_ops:
        if event.full_mask:
            result = _check(facts, event, warp=True)
            if result:
                found.append(result)
    return found


def _check(facts: KernelFacts, event: GuardedEvent, warp: bool) -> Divergence | None:
    guard = event.guard
    if not cond_thread_dependent(guard):
        return None
    if has_opaque(guard):
        # Part of the condition is unreadable; a warp-uniform one cannot split a warp.
        if warp and _only_warp_uniform_opaque(guard):
            return None
        return Divergence(event, False, None, None)
    symbols = sorted(cond_vars(guard) - set(THREAD_VARS))
    axes = [v for v in THREAD_VARS if v in cond_vars(guard)]
    block = facts.block or DEFAULT_BLOCKS[max([1] + [THREAD_VARS.index(v) + 1 for v in axes])]
    threads = thread_grid(block)
    count = len(threads["tid.x"])
    sets = [facts.symbols[s].values or SAMPLES for s in symbols]
    sampled = any(facts.symbols[s].values is None for s in symbols)
    for combo in itertools.islice(itertools.product(*sets), _MAX_COMBOS):
        env = dict(threads)
        env.update({name: np.int64(value) for name, value in zip(symbols, combo)})
        taken = evaluate_cond(guard, env, (count,))
        groups = np.arange(count) // 32 if warp else np.zeros(count, dtype=np.int64)
        for group in np.unique(groups):
            members = taken[groups == group]
            if members.any() and not members.all():
                ids = np.flatnonzero(groups == group)
                t_in, t_out = ids[members][0], ids[~members][0]
                coord = lambda i: tuple(int(threads[v][i]) for v in THREAD_VARS)  # noqa: E731
                return Divergence(event, facts.block is not None and not sampled, coord(t_in), coord(t_out))
    return None


def _only_warp_uniform_opaque(cond: object) -> bool:
    if isinstance(cond, Opaque):
        return cond.uniform or cond.warp_uniform
    if isinstance(cond, Not):
        return _only_warp_uniform_opaque(cond.cond)
    if isinstance(cond, (All, AnyOf)):
        return all(_only_warp_uniform_opaque(c) for c in cond.conds)
    if isinstance(cond, Cmp):
        return not (cond.lhs.thread_dependent or cond.rhs.thread_dependent)
    return True
