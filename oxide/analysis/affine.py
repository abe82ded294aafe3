"""Affine integer expressions over thread coordinates and launch-uniform symbols, and path conditions over them.

The shared-memory race check reasons about index expressions such as `ty * 16 + tx` or `t + stride`: an
`Affine` is `const + sum(coeff * var)` where a var is a thread coordinate (`tid.x`, `tid.y`, `tid.z`) or a
symbol (a value that is the same for every thread of the block during one barrier interval: a loop counter,
a kernel parameter, `blockIdx`). `Cond` is a path condition built from comparisons of affine expressions;
conditions the analysis cannot read are `Opaque`, marked uniform or thread-dependent.

Everything evaluates on numpy arrays, one entry per candidate (thread pair, symbol values), so that the
race search is vectorised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

import numpy as np

THREAD_VARS = ("tid.x", "tid.y", "tid.z")


_WIDE = 1 << 40  # a constant from which evaluate() sums in Python ints (int64 headroom for the products)

@dataclass(frozen=True)
class Affine:
    """`const + sum(coeff * var)`; `terms` is sorted by var name and has no zero coefficient."""

    terms: tuple[tuple[str, int], ...] = ()
    const: int = 0

    @staticmethod
    def of(var: str, coeff: int = 1) -> "Affine":
        """The expression `coeff * var`."""
        return Affine(((var, coeff),)) if coeff else Affine()

    @staticmethod
    def constant(value: int) -> "Affine":
        """The constant expression `value`."""
        return Affine((), int(value))

    def __add__(self, other: "Affine") -> "Affine":
        merged = dict(self.terms)
        for var, coeff in other.terms:
            merged[var] = merged.get(var, 0) + coeff
        return Affine(tuple(sorted((v, c) for v, c in merged.items() if c)), self.const + other.const)

    def scale(self, factor: int) -> "Affine":
        """This expression times the integer `factor`."""
        if factor == 0:
            return Affine()
        return Affine(tuple((v, c * factor) for v, c in self.terms), self.const * factor)

    def __sub__(self, other: "Affine") -> "Affine":
        return self + other.scale(-1)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    @property
    def thread_dependent(self) -> bool:
        """Whether the value can differ between threads of a block."""
        return any(v in THREAD_VARS for v, _ in self.terms)

    def symbols(self) -> set[str]:
        """The symbols (non-thread vars) it mentions."""
        return {v for v, _ in self.terms if v not in THREAD_VARS}

    def rename(self, mapping: Mapping[str, str]) -> "Affine":
        """The same expression with vars renamed (vars not in `mapping` kept)."""
        out = Affine.constant(self.const)
        for var, coeff in self.terms:
            out = out + Affine.of(mapping.get(var, var), coeff)
        return out

    def evaluate(self, env: Mapping[str, np.ndarray]) -> np.ndarray:
        """The value for every candidate: `env` maps each var to an int64 array (all of one shape)."""
        shape = np.broadcast(*env.values()).shape if env else ()
        # Constants near or past the int64 range (`const TILE: usize = 9223372036854775807`) are summed as
        # Python ints, which do not overflow; the usual small ones stay on fast int64 arrays.
        wide = any(abs(c) >= _WIDE for c in (self.const, *(coeff for _, coeff in self.terms)))
        total = np.full(shape, self.const, dtype=object if wide else np.int64)
        for var, coeff in self.terms:
            total = total + coeff * (env[var].astype(object) if wide else env[var])
        return total

    def __str__(self) -> str:
        parts = [(f"{c}*{v}" if c != 1 else v) for v, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)


@dataclass(frozen=True)
class Cmp:
    """`lhs <pred> rhs` with pred one of eq, ne, lt, le, gt, ge (signedness is irrelevant for the small
    non-negative values the search tries)."""

    pred: str
    lhs: Affine
    rhs: Affine


@dataclass(frozen=True)
class Not:
    cond: "Cond"


@dataclass(frozen=True)
class All:
    conds: tuple["Cond", ...]


@dataclass(frozen=True)
class AnyOf:
    conds: tuple["Cond", ...]


@dataclass(frozen=True)
class Const:
    value: bool


@dataclass(frozen=True)
class Opaque:
    """A condition the analysis cannot read; `uniform` when it is the same for every thread of the block,
    `warp_uniform` when it is the same for every lane of a warp."""

    uniform: bool
    warp_uniform: bool = False


Cond = Union[Cmp, Not, All, AnyOf, Const, Opaque]

_PREDICATES = {
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
}


def cond_vars(cond: Cond) -> set[str]:
    """Every var a condition mentions."""
    if isinstance(cond, Cmp):
        return {v for v, _ in cond.lhs.terms} | {v for v, _ in cond.rhs.terms}
    if isinstance(cond, Not):
        return cond_vars(cond.cond)
    if isinstance(cond, (All, AnyOf)):
        return set().union(*(cond_vars(c) for c in cond.conds)) if cond.conds else set()
    return set()


def has_opaque(cond: Cond) -> bool:
    """Whether the condition contains a part the analysis cannot read."""
    if isinstance(cond, Opaque):
        return True
    if isinstance(cond, Not):
        return has_opaque(cond.cond)
    if isinstance(cond, (All, AnyOf)):
        return any(has_opaque(c) for c in cond.conds)
    return False


def cond_thread_dependent(cond: Cond) -> bool:
    """Whether the condition can differ between threads of a block."""
    if isinstance(cond, Cmp):
        return cond.lhs.thread_dependent or cond.rhs.thread_dependent
    if isinstance(cond, Not):
        return cond_thread_dependent(cond.cond)
    if isinstance(cond, (All, AnyOf)):
        return any(cond_thread_dependent(c) for c in cond.conds)
    if isinstance(cond, Opaque):
        return not cond.uniform
    return False


def rename_cond(cond: Cond, mapping: Mapping[str, str]) -> Cond:
    """The condition with vars renamed."""
    if isinstance(cond, Cmp):
        return Cmp(cond.pred, cond.lhs.rename(mapping), cond.rhs.rename(mapping))
    if isinstance(cond, Not):
        return Not(rename_cond(cond.cond, mapping))
    if isinstance(cond, All):
        return All(tuple(rename_cond(c, mapping) for c in cond.conds))
    if isinstance(cond, AnyOf):
        return AnyOf(tuple(rename_cond(c, mapping) for c in cond.conds))
    return cond


def evaluate_cond(cond: Cond, env: Mapping[str, np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """Where the condition holds. An opaque condition is taken to hold: the search asks whether a conflict
    is possible, and the caller reports a conflict that needed one as a warning, not an error."""
    if isinstance(cond, Cmp):
        return _PREDICATES[cond.pred](cond.lhs.evaluate(env), cond.rhs.evaluate(env)) & np.ones(shape, bool)
    if isinstance(cond, Not):
        if has_opaque(cond.cond):
            return np.ones(shape, bool)
        return ~evaluate_cond(cond.cond, env, shape)
    if isinstance(cond, All):
        out = np.ones(shape, bool)
        for c in cond.conds:
            out &= evaluate_cond(c, env, shape)
        return out
    if isinstance(cond, AnyOf):
        out = np.zeros(shape, bool)
        for c in cond.conds:
            out |= evaluate_cond(c, env, shape)
        return out
    if isinstance(cond, Const):
        return np.full(shape, cond.value)
    return np.ones(shape, bool)


def negate(cond: Cond) -> Cond:
    """`!cond`, folding constants and double negations."""
    if isinstance(cond, Const):
        return Const(not cond.value)
    if isinstance(cond, Not):
        return cond.cond
    if isinstance(cond, Opaque):
        return cond
    return Not(cond)
