"""Type and attribute constraints for declared ops, types and attributes.

A constraint says which MLIR types (or attributes) a field accepts. Each one renders itself as IRDL
constraint ops (`irdl.is`, `irdl.base`, `irdl.any_of`, `irdl.parametric`), so the checks run inside
MLIR's own verifier, and each one can also bind and instantiate type variables, which is how builders
infer result types (`load(slice<f32>, index) -> f32`) without the caller spelling them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oxide.ir.irdl_gen import IrdlScope


class Constraint:
    """Base class: a set of MLIR types or attributes."""

    def irdl(self, scope: "IrdlScope") -> str:
        """Emit the IRDL ops for this constraint into `scope`; return the SSA name of the result."""
        raise NotImplementedError(type(self).__name__)

    def describe(self) -> str:
        """A short human-readable form, used in docs and error messages."""
        raise NotImplementedError(type(self).__name__)

    def bind(self, value_type: Any, bindings: dict["TypeVar", Any]) -> None:
        """Record what the type variables inside this constraint are, given a concrete type."""

    def instantiate(self, bindings: dict["TypeVar", Any]) -> Any | None:
        """The one concrete type this constraint denotes under `bindings`, or None if not unique."""
        return None


@dataclass(frozen=True)
class AnyType(Constraint):
    """Any type or attribute at all."""

    def irdl(self, scope: "IrdlScope") -> str:
        return scope.value("irdl.any")

    def describe(self) -> str:
        return "any"


@dataclass(frozen=True)
class Is(Constraint):
    """Exactly one type or attribute, written in MLIR syntax: Is("f32"), Is("index"), Is('"x"')."""

    text: str

    def irdl(self, scope: "IrdlScope") -> str:
        return scope.value(f"irdl.is {self.text}")

    def describe(self) -> str:
        return self.text

    def instantiate(self, bindings: dict["TypeVar", Any]) -> Any | None:
        from mlir import ir

        try:
            return ir.Type.parse(self.text)
        except Exception:  # not a type: an attribute literal such as '"1d"' (a type parameter)
            try:
                return ir.Attribute.parse(self.text)
            except Exception:
                return None


@dataclass(frozen=True)
class BaseOf(Constraint):
    """Every instance of one type or attribute kind: BaseOf("!builtin.integer"), or a declared TypeDef class."""

    base: Any

    def irdl(self, scope: "IrdlScope") -> str:
        if isinstance(self.base, str):
            return scope.value(f'irdl.base "{self.base}"')
        return scope.value(f"irdl.base {self.base.irdl_ref()}")

    def describe(self) -> str:
        return self.base if isinstance(self.base, str) else self.base.mnemonic_ref()

    def instantiate(self, bindings: dict["TypeVar", Any]) -> Any | None:
        # A declared type without parameters has exactly one instance.
        if isinstance(self.base, str) or self.base.parameters or self.base.sigil != "!":
            return None
        return self.base.get()


@dataclass(frozen=True)
class AnyOf(Constraint):
    """Any of several constraints."""

    options: tuple[Constraint, ...]

    def __init__(self, *options: Constraint):
        # MLIR 22's IRDL loader aborts the process (UNREACHABLE) on any irdl.base inside irdl.any_of. A
        # declared type's base is the same set as its parametric form with unconstrained parameters, which
        # the loader accepts; a by-name builtin base has no such form, so it is refused here, at declaration.
        converted = []
        for option in options:
            if isinstance(option, BaseOf):
                if isinstance(option.base, str):
                    raise ValueError(f"AnyOf cannot hold BaseOf({option.base!r}) on MLIR 22; list the types with Is()")
                option = Parametric(option.base, *(AnyType() for _ in option.base.parameters))
            converted.append(option)
        object.__setattr__(self, "options", tuple(converted))

    def irdl(self, scope: "IrdlScope") -> str:
        names = [option.irdl(scope) for option in self.options]
        return scope.value(f"irdl.any_of({', '.join(names)})")

    def describe(self) -> str:
        return " | ".join(option.describe() for option in self.options)

    def bind(self, value_type: Any, bindings: dict["TypeVar", Any]) -> None:
        for option in self.options:
            option.bind(value_type, bindings)


@dataclass(frozen=True)
class Parametric(Constraint):
    """An instance of a declared parametric type whose parameters satisfy constraints: slice<T>."""

    typedef: Any
    params: tuple[Constraint, ...]

    def __init__(self, typedef: Any, *params: Constraint):
        object.__setattr__(self, "typedef", typedef)
        object.__setattr__(self, "params", tuple(params))

    def irdl(self, scope: "IrdlScope") -> str:
        names = [param.irdl(scope) for param in self.params]
        return scope.value(f"irdl.parametric {self.typedef.irdl_ref()}<{', '.join(names)}>")

    def describe(self) -> str:
        return f"{self.typedef.mnemonic_ref()}<{', '.join(p.describe() for p in self.params)}>"

    def bind(self, value_type: Any, bindings: dict["TypeVar", Any]) -> None:
        if not self.typedef.isinstance(value_type):
            return
        for param, actual in zip(self.params, self.typedef.parameters_of(value_type)):
            param.bind(actual, bindings)

    def instantiate(self, bindings: dict["TypeVar", Any]) -> Any | None:
        actuals = [param.instantiate(bindings) for param in self.params]
        if any(actual is None for actual in actuals):
            return None
        return self.typedef.get(*actuals)


class TypeVar(Constraint):
    """A named constraint that must resolve to the same type everywhere it appears in one op.

    IRDL expresses "same type" by reusing one constraint SSA value; the IRDL scope does that by identity,
    so declare one TypeVar per op (or share one deliberately) and use it in every field that must agree.
    """

    def __init__(self, name: str, bound: Constraint | None = None):
        self.name = name
        self.bound = bound or AnyType()

    def __repr__(self) -> str:
        return f"TypeVar({self.name!r}, {self.bound!r})"

    def irdl(self, scope: "IrdlScope") -> str:
        return scope.shared(self, lambda: self.bound.irdl(scope))

    def describe(self) -> str:
        return self.name

    def bind(self, value_type: Any, bindings: dict["TypeVar", Any]) -> None:
        bindings.setdefault(self, value_type)

    def instantiate(self, bindings: dict["TypeVar", Any]) -> Any | None:
        return bindings.get(self)


def one_of(*texts: str) -> AnyOf:
    """An attribute that is one of several string literals: one_of("x", "y", "z")."""
    return AnyOf(*(Is(f'"{text}"') for text in texts))


# The builtin kinds oxide's dialects constrain against, named once.
INDEX = Is("index")
I1 = Is("i1")
# Rust's integers are all signless in MLIR; listed rather than BaseOf("!builtin.integer") so AnyOf can hold them.
ANY_INTEGER = AnyOf(*(Is(f"i{width}") for width in (1, 8, 16, 32, 64, 128)))
ANY_FLOAT = AnyOf(Is("f16"), Is("bf16"), Is("f32"), Is("f64"))
SCALAR = AnyOf(ANY_INTEGER, ANY_FLOAT, INDEX)
STRING_ATTR = BaseOf("#builtin.string")
INTEGER_ATTR = BaseOf("#builtin.integer")
