"""The AST of the supported Rust subset. Every node carries the location of its first character; the
checker fills in `ty` on expressions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

from oxide.diagnostics import OxideError, SourceLoc


class Args(list):
    """The arguments of a call, macro or generic type. Reading one that was not written (`args[2]` of a call
    with two) is the user's mistake, reported at the call ("`mul_add` expects at least 2 arguments, got 0"),
    so no handler of a builtin needs its own count check before it reads its arguments."""

    def __init__(self, items: Any = (), owner: str = "", loc: SourceLoc | None = None, what: str = "argument"):
        super().__init__(items)
        self.owner, self.loc, self.what = owner, loc, what

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return Args(super().__getitem__(index), self.owner, self.loc, self.what)
        if not -len(self) <= index < len(self):
            wanted = index + 1 if index >= 0 else -index
            raise OxideError(f"`{self.owner}` expects at least {wanted} {self.what}{'s' if wanted > 1 else ''}, "
                             f"got {len(self)}", self.loc)
        return super().__getitem__(index)


def _args(items: list[Any], owner: str, loc: SourceLoc | None, what: str = "argument") -> Args:
    return items if isinstance(items, Args) else Args(items, owner, loc, what)


# Types as written -------------------------------------------------------------------------------------
@dataclass
class PathTy:
    """`f32`, `T`, `DisjointSlice<f32, Index2D<16>>`, `Option<u32>`: a name with generic arguments
    (types, or const expressions for const generics)."""

    loc: SourceLoc
    name: str
    args: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.args = _args(self.args, self.name, self.loc, "generic argument")


@dataclass
class RefTy:
    """`&T` / `&mut T`."""

    loc: SourceLoc
    inner: Any
    mutable: bool


@dataclass
class SliceTy:
    """`[T]` (behind a reference)."""

    loc: SourceLoc
    elem: Any


@dataclass
class ArrayTy:
    """`[T; N]`."""

    loc: SourceLoc
    elem: Any
    length: Any


@dataclass
class TupleTy:
    """`(A, B)`; `()` is the unit type."""

    loc: SourceLoc
    elems: list[Any]


@dataclass
class FnPtrTy:
    """`fn(A, B) -> R`: a function pointer type (its values are the function items assigned to it)."""

    loc: SourceLoc


@dataclass
class PtrTy:
    """`*const T` / `*mut T`."""

    loc: SourceLoc
    inner: Any
    mutable: bool


TypeExpr = Union[PathTy, RefTy, SliceTy, ArrayTy, TupleTy, PtrTy]


# Patterns ---------------------------------------------------------------------------------------------
@dataclass
class BindPat:
    """`x`, `mut x`."""

    loc: SourceLoc
    name: str
    mutable: bool = False


@dataclass
class WildPat:
    """`_`."""

    loc: SourceLoc


@dataclass
class TuplePat:
    """`(a, b)`."""

    loc: SourceLoc
    elems: list[Any]


@dataclass
class RestPat:
    """`..` among the fields of a tuple or tuple-variant pattern: the remaining fields, ignored."""

    loc: SourceLoc


@dataclass
class RefPat:
    """`&x` / `&mut x`: matches what a reference refers to."""

    loc: SourceLoc
    inner: Any


@dataclass
class VariantPat:
    """`Some(x)`, `None`, `Color::Red`: an enum variant with optional sub-patterns."""

    loc: SourceLoc
    path: list[str]
    elems: list[Any] = field(default_factory=list)


@dataclass
class LitPat:
    """An integer or bool literal pattern (`3`, `-1`, `true`), or an inclusive range `1..=4`."""

    loc: SourceLoc
    value: Any
    upper: Any = None


@dataclass
class OrPat:
    """`1 | 2 | 3`."""

    loc: SourceLoc
    alternatives: list[Any]


Pattern = Union[BindPat, WildPat, TuplePat, VariantPat, LitPat, OrPat]


# Expressions ------------------------------------------------------------------------------------------
@dataclass
class Expr:
    """Base of expressions; `ty` is set by the checker."""

    loc: SourceLoc

    def __post_init__(self) -> None:
        self.ty: Any = None


@dataclass
class Lit(Expr):
    """`1`, `2.5f32`, `true`, `'c'` is not supported; `suffix` is the type suffix if written."""

    value: Any
    kind: str  # "int" | "float" | "bool" | "str"
    suffix: Optional[str] = None


@dataclass
class PathExpr(Expr):
    """A name: `x`, `N`, `f32::MAX`, `thread::index_1d`, `Option::None`; `generics` from a turbofish."""

    segments: list[str]
    generics: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.generics = _args(self.generics, "::".join(self.segments), self.loc, "generic argument")


@dataclass
class Call(Expr):
    """`f(a, b)`, `thread::index_2d::<16>()`, `Point { .. }` is StructLit."""

    func: Expr
    args: list[Expr]

    def __post_init__(self) -> None:
        super().__post_init__()
        name = "::".join(self.func.segments) if isinstance(self.func, PathExpr) else "this function"
        self.args = _args(self.args, name, self.loc)


@dataclass
class MethodCall(Expr):
    """`recv.name::<G>(args)`."""

    receiver: Expr
    name: str
    args: list[Expr]
    generics: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.args = _args(self.args, self.name, self.loc)
        self.generics = _args(self.generics, self.name, self.loc, "generic argument")


@dataclass
class Binary(Expr):
    """`a op b` for arithmetic, bitwise, comparison and short-circuit operators."""

    op: str
    lhs: Expr
    rhs: Expr


@dataclass
class Unary(Expr):
    """`-x`, `!x`, `*x`, `&x`, `&mut x`."""

    op: str
    operand: Expr


@dataclass
class Cast(Expr):
    """`x as T`."""

    operand: Expr
    target: Any


@dataclass
class Index(Expr):
    """`base[index]` (bounds-checked)."""

    base: Expr
    index: Expr


@dataclass
class Field(Expr):
    """`base.name` or `base.0`."""

    base: Expr
    name: str


@dataclass
class Assign(Expr):
    """`target = value`, or compound `target op= value` (op set)."""

    target: Expr
    value: Expr
    op: Optional[str] = None


@dataclass
class Block(Expr):
    """`{ stmts; tail }`, possibly `unsafe`."""

    stmts: list[Any]
    tail: Optional[Expr]
    unsafe: bool = False


@dataclass
class If(Expr):
    """`if cond { } else { }`; `cond` may be a LetCond for `if let`."""

    cond: Any
    then: Block
    else_: Optional[Expr]


@dataclass
class LetCond:
    """The condition of `if let PAT = value`."""

    loc: SourceLoc
    pattern: Any
    value: Expr


@dataclass
class LetChain:
    """`let P = v && cond && let Q = w` (an `if` condition): LetConds and boolean Exprs, in order."""

    loc: SourceLoc
    parts: list[Any]


@dataclass
class While(Expr):
    """`'label: while cond { }` (cond may be a LetCond); `unroll` from `#[unroll]` (0: fully) or `#[unroll(N)]`."""

    cond: Any
    body: Block
    label: Optional[str] = None
    unroll: Optional[int] = None


@dataclass
class Loop(Expr):
    """`'label: loop { }`; `unroll` as for While."""

    body: Block
    label: Optional[str] = None
    unroll: Optional[int] = None


@dataclass
class For(Expr):
    """`'label: for pat in iter { }` over a range, optionally `.step_by(n)`."""

    pattern: Any
    iter: Expr
    body: Block
    label: Optional[str] = None
    unroll: Optional[int] = None


@dataclass
class Break(Expr):
    """`break 'label value`."""

    label: Optional[str] = None
    value: Optional[Expr] = None


@dataclass
class Continue(Expr):
    """`continue 'label`."""

    label: Optional[str] = None


@dataclass
class Return(Expr):
    """`return value`."""

    value: Optional[Expr] = None


@dataclass
class Range(Expr):
    """`a..b`, `a..=b`."""

    start: Optional[Expr]
    end: Optional[Expr]
    inclusive: bool = False


@dataclass
class Tuple(Expr):
    """`(a, b)`; `()` is unit."""

    elems: list[Expr]


@dataclass
class ArrayLit(Expr):
    """`[a, b, c]` or `[value; N]` (repeat set)."""

    elems: list[Expr]
    repeat: Optional[Any] = None


@dataclass
class StructLit(Expr):
    """`Point { x: 1.0, y }`."""

    name: list[str]
    fields: list[tuple[str, Expr]]


@dataclass
class Closure(Expr):
    """`|a, b: f32| body` (also `move |..|`): inlined where it is called."""

    params: list[Any]
    body: Expr


@dataclass
class MatchArm:
    """`pattern if guard => body`."""

    loc: SourceLoc
    pattern: Any
    guard: Optional[Expr]
    body: Expr


@dataclass
class Match(Expr):
    """`match scrutinee { arms }`."""

    scrutinee: Expr
    arms: list[MatchArm]


@dataclass
class MacroCall(Expr):
    """`gpu_printf!(...)`, `assert!(...)`, `panic!(...)`: name and parsed arguments (a leading format
    string stays a Lit of kind "str")."""

    name: str
    args: list[Expr]

    def __post_init__(self) -> None:
        super().__post_init__()
        self.args = _args(self.args, self.name + "!", self.loc)


# Statements and items ---------------------------------------------------------------------------------
@dataclass
class Let:
    """`let pat: T = init;`, or `let pat = init else { diverge };` (else_ set)."""

    loc: SourceLoc
    pattern: Any
    ty: Optional[Any]
    init: Optional[Expr]
    else_: Optional[Any] = None


@dataclass
class ExprStmt:
    """An expression statement (`expr;` or a block-like expression)."""

    loc: SourceLoc
    expr: Expr


@dataclass
class StaticShared:
    """`static mut NAME: SharedArray<T, N> = SharedArray::UNINIT;` inside a function."""

    loc: SourceLoc
    name: str
    ty: Any


@dataclass
class Param:
    """A function parameter `mut name: T` (or a pattern)."""

    loc: SourceLoc
    pattern: Any
    ty: Any


@dataclass
class Generic:
    """A generic parameter: a type `T: Bound` or a const `const N: usize`."""

    loc: SourceLoc
    name: str
    const_ty: Optional[Any] = None


@dataclass
class Function:
    """A kernel, device function, helper or method."""

    loc: SourceLoc
    name: str
    generics: list[Generic]
    params: list[Param]
    ret: Optional[Any]
    body: Block
    attrs: dict[str, Any]
    self_param: Optional[str] = None  # "self", "&self", "&mut self"


@dataclass
class StructDef:
    """`struct Name { field: T, .. }` or a tuple struct."""

    loc: SourceLoc
    name: str
    generics: list[Generic]
    fields: list[tuple[str, Any]]
    align: int = 0  # `#[repr(align(N))]`: N; 0 for the natural alignment


@dataclass
class EnumDef:
    """An enum `enum E { A, B = 3, C(u32, f32) }`; `fields` holds the field types of tuple variants."""

    loc: SourceLoc
    name: str
    variants: list[tuple[str, Optional[int]]]
    fields: dict[str, list[Any]] = field(default_factory=dict)
    repr: str = ""  # `#[repr(u8)]` & co: the integer type named, "C" for `#[repr(C)]`, "" when none


@dataclass
class ConstDef:
    """`const NAME: T = value;` (also immutable `static`)."""

    loc: SourceLoc
    name: str
    ty: Any
    value: Expr


@dataclass
class ImplBlock:
    """`impl Type { fn .. }` or `impl Trait for Type { .. }`."""

    loc: SourceLoc
    type_name: str
    methods: list[Function]
    trait: Optional[str] = None
