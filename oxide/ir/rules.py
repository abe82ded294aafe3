"""Rule tables keyed by op class, the one error a rule raises, and op-class tests.

Every conversion (tile -> simt, simt -> NVVM), the emulator's program generators and the analysis walks
dispatch one function per op through a `RuleSet`: the function is registered with a decorator naming the op
classes it handles (`@rules.lowering(simt.LoadOp)`, `@rules.lowering(scf.ForOp)` for an upstream op), a class
registered twice is a programming error, and an op with no rule is a located `LoweringError`. What a rule
is called with (its context) belongs to each user of a rule set; the lookup, the registration and the
located error are the same for all.

Code outside the dialect declarations never spells an op name: it asks `is_op(op, scf.ForOp)`, or keeps an
`OpSet` of classes. The lookup goes by the op's name because an `ir.Operation` carries its name, while its
typed OpView exists only where the bindings' module of the dialect is loaded.

This module sits on the ir floor so that analysis (below passes) and the emulator's generator (in backend)
use the same tables as the conversions.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from oxide.diagnostics import OxideError
from oxide.ir.diagnostics import source_loc
from oxide.ir.registry import Registry

Rule = Callable[..., Any]
V = TypeVar("V")


class LoweringError(OxideError):
    """An op that a conversion, the emulator's generator or an analysis cannot handle, located at the op.

    A rule raises it without a location (`LoweringError("why")`); the driver that called the rule locates it
    at the op (`exc.at(op)`). `message` is the text without the location, for reporting through MLIR's own
    diagnostics (which add the location themselves)."""

    def __init__(self, message: str, where: Any = None):
        self.message = message
        # `where` is an op (anything with a `.location`), an ir.Location, or None.
        self.location = getattr(where, "location", where)
        super().__init__(message, source_loc(self.location) if self.location is not None else None)

    def at(self, where: Any) -> LoweringError:
        """This error located at `where`, unless it already has a location."""
        return self if self.location is not None else type(self)(self.message, where)


class FollowsFailure(LoweringError):
    """An operand comes from an op whose lowering failed: a consequence of an error already reported, which
    the simt -> NVVM driver does not report again."""


def op_name_of(op: Any) -> str | None:
    """The name of an ir.Operation or OpView; None for anything else (a block owning a block argument)."""
    operation = getattr(op, "operation", None)
    return getattr(operation, "name", None)


def is_op(op: Any, *op_classes: type) -> bool:
    """Whether `op` (an ir.Operation or OpView; a Block is never one) is an op of one of `op_classes`."""
    name = op_name_of(op)
    return name is not None and any(cls.OPERATION_NAME == name for cls in op_classes)


class OpSet:
    """A fixed set of op classes, asked by op (`op in WARP_COLLECTIVES`) or by op name (`.names`)."""

    def __init__(self, *op_classes: type):
        self.classes = tuple(op_classes)
        self.names = frozenset(cls.OPERATION_NAME for cls in op_classes)

    def __contains__(self, op: Any) -> bool:
        return op_name_of(op) in self.names

    def __or__(self, other: OpSet) -> OpSet:
        return OpSet(*self.classes, *other.classes)


class OpMap(Generic[V]):
    """Values keyed by op class (`{arith.AddIOp: "+"}`), looked up by op (`BINARY[op]`)."""

    def __init__(self, entries: Mapping[type, V]):
        self.classes = tuple(entries)
        self._values = {cls.OPERATION_NAME: value for cls, value in entries.items()}

    def __getitem__(self, op: Any) -> V:
        return self._values[op.operation.name]

    def __contains__(self, op: Any) -> bool:
        return op_name_of(op) in self._values

    def get(self, op: Any, default: V | None = None) -> V | None:
        """The value of `op`'s class, or `default`."""
        return self._values.get(op_name_of(op), default)

    def by_name(self, name: str, default: V | None = None) -> V | None:
        """The value of the op class named `name` (an op recorded by name), or `default`."""
        return self._values.get(name, default)


def ops_of(*modules: types.ModuleType) -> tuple[type, ...]:
    """Every op class a dialect's bindings module declares (`mlir.dialects.arith`), one per op name."""
    seen: dict[str, type] = {}
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            name = getattr(cls, "OPERATION_NAME", None)
            if isinstance(name, str) and name not in seen:
                seen[name] = cls
    return tuple(seen[name] for name in sorted(seen))


class RuleSet:
    """The rules of one consumer of ops (a conversion, a program generator, a walk), keyed by op class."""

    def __init__(self, name: str, missing: str):
        """`name` says whose rules these are; `missing` is the error for an op without a rule, with `{op}`
        where the op's name goes."""
        self.name = name
        self._missing = missing
        # Keyed by op name: an ir.Operation carries its name, its OpView class only where its module is loaded.
        self._rules: Registry[str, Rule] = Registry(f"{name} rule for op")
        self._classes: dict[str, type] = {}

    def lowering(self, *op_classes: type) -> Callable[[Rule], Rule]:
        """Decorator: register the function as the rule of each op class."""

        def register(rule: Rule) -> Rule:
            for cls in op_classes:
                self._rules.add(cls.OPERATION_NAME, rule)
                self._classes[cls.OPERATION_NAME] = cls
            return rule

        return register

    def __contains__(self, op_class: type) -> bool:
        return op_class.OPERATION_NAME in self._rules

    def __iter__(self) -> Iterator[type]:
        return iter(self._classes.values())

    def rule_for(self, op: Any) -> Rule | None:
        """The rule of `op` (an ir.Operation or OpView), or None."""
        return self._rules.get(op.operation.name)

    def require(self, op: Any) -> Rule:
        """The rule of `op`; a LoweringError located at the op when it has none."""
        rule = self._rules.get(op.operation.name)
        if rule is None:
            raise LoweringError(self._missing.format(op=op.operation.name), op)
        return rule

    def apply(self, op: Any, ctx: Any, subject: Any) -> Any:
        """Run the rule of `op` as `rule(ctx, subject)`; a LoweringError it raises is located at the op."""
        rule = self.require(op)
        try:
            return rule(ctx, subject)
        except LoweringError as exc:
            raise exc.at(op) from None
