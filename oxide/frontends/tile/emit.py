"""The tile frontend's emitter: names, types, compile-time values, statements, expressions and operators
of one tile kernel body, in SSA form. Helper functions are inlined at their call site. Control flow is in
control.py (the Emitter's mixin), the cutile-rs operations (calls and methods) in ops.py.
"""

from __future__ import annotations

from typing import Any, Callable

from mlir.dialects import arith

from oxide.frontends.syntax import ast
from oxide.frontends.kernel_module import location, param_name
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import annotations, mapped, ops, ops_debug, ops_memory
# The catalogue: each ops module registers its operations when imported (ops_atomic after ops_shape, whose
# methods it extends; it imports ops_shape itself).
from oxide.frontends.tile import ops_atomic, ops_compute, ops_pointer, ops_shape  # noqa: F401
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.control import Binding, ControlFlow, LoopFrame
from oxide.frontends.tile.module import SHAPE_MACROS, TILE_TARGET, TileCrate
from oxide.frontends.tile.types import (
    BOOL, I32, SCALAR_ALIASES, SCALARS, UNIT_V, ArrayT, ClosureT, DimsT, Flex, MarkerT, PtrT, Scalar, ShapeT,
    TileT, TupleT, V, ViewT, rust_name,
)
from oxide.frontends.tile.values import coerce, concrete, scalar_const

_MAX_INLINE_DEPTH = 32
MAX_DIM = (1 << 31) - 1  # a dimension the i32 block ids, strides and MLIR's i64 shape arrays all hold
# An array value of a tile kernel is a list of indices or dimensions, one SSA value each: a longer one is a
# mistake (and `[x; 1 << 40]` would exhaust the compiler's memory).
_MAX_ARRAY_VALUE = 4096
# Marker-type modules of cutile-rs: arguments that select a variant of an op.
MARKER_MODULES = ("rounding", "ftz", "nan", "overflow", "reverse", "predicate", "cmp_ordering", "atomic",
                  "ordering", "scope", "padding", "tma")
OPTION_MARKERS = ("None", "Latency")


class Emitter(ControlFlow):
    """Emits one kernel instance (and the helpers it inlines) at the current insertion point."""

    def __init__(self, crate: TileCrate, fn: ast.Function, generics: dict[str, Any], retypes: dict[int, Scalar]):
        self.crate = crate
        self.fn = fn
        self.generics = generics
        self.retypes = retypes
        self.scopes: list[dict[str, Binding]] = [{}]
        self.loops: list[LoopFrame] = []
        self.depth = 0
        self._consts: dict[str, V] = {}

    # Names -----------------------------------------------------------------------------------------------
    def bind(self, name: str, v: V, mutable: bool = False, let_id: int | None = None) -> None:
        """Bind a name in the innermost scope."""
        self.scopes[-1][name] = Binding(name, v, mutable, let_id)

    def lookup(self, name: str) -> Binding | None:
        """The binding a name refers to here, or None."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def bind_pattern(self, pattern: Any, v: V, let_id: int | None = None) -> None:
        """Bind a `let`/parameter/`for` pattern: a name, `_`, or a tuple of patterns."""
        if isinstance(pattern, ast.BindPat):
            self.bind(pattern.name, v, pattern.mutable, let_id if isinstance(v.ty, Flex) else None)
        elif isinstance(pattern, ast.WildPat):
            return
        elif isinstance(pattern, ast.TuplePat):
            if not isinstance(v.ty, TupleT):
                raise err(pattern.loc, f"a tuple pattern needs a tuple, found `{rust_name(v.ty)}`")
            elems = pattern.elems
            if any(isinstance(e, ast.RestPat) for e in elems):
                rest = next(i for i, e in enumerate(elems) if isinstance(e, ast.RestPat))
                skipped = len(v.parts) - (len(elems) - 1)
                elems = elems[:rest] + [ast.WildPat(pattern.loc)] * skipped + elems[rest + 1:]
            if len(elems) != len(v.parts):
                raise err(pattern.loc, f"this pattern has {len(elems)} fields, the tuple has {len(v.parts)}")
            for sub, part in zip(elems, v.parts):
                self.bind_pattern(sub, part)
        elif isinstance(pattern, ast.RefPat):
            self.bind_pattern(pattern.inner, v, let_id)
        else:
            raise err(pattern.loc, "this pattern is not supported in tile kernels; bind a name or a tuple")

    # Types -----------------------------------------------------------------------------------------------
    def resolve_type(self, t: Any) -> Any:
        """The semantic type of a type expression (generic parameters substituted)."""
        if isinstance(t, ast.RefTy):
            inner = t.inner
            if isinstance(inner, ast.PathTy) and inner.name == "Tensor":
                elem, shape = self._tensor_args(inner)
                return ViewT(elem, shape, t.mutable)
            return self.resolve_type(inner)
        if isinstance(t, ast.PtrTy):
            if not t.mutable:
                raise err(t.loc, "tile kernels take raw pointers as `*mut T`")
            return PtrT(self.scalar_type(t.inner))
        if isinstance(t, ast.TupleTy):
            return TupleT(tuple(self.resolve_type(e) for e in t.elems))
        if isinstance(t, ast.PathTy):
            if t.name == "Tile":
                elem, shape = self._tensor_args(t)
                return TileT(elem, shape)
            if t.name == "MappedPartitionMut":
                return mapped.resolve_mapped(self, t)
            named = annotations.resolve(t, self._tensor_args, self.shape_value)
            return named if named is not None else self.scalar_type(t)
        raise err(t.loc, "this type is not supported in tile kernels")

    def scalar_type(self, t: Any) -> Scalar:
        """A scalar/element type: a primitive or a type generic bound to one."""
        if isinstance(t, ast.PathTy) and not t.args:
            bound = self.generics.get(t.name)
            if isinstance(bound, Scalar):
                return bound
            if t.name in SCALARS or t.name in SCALAR_ALIASES:
                return SCALARS[SCALAR_ALIASES.get(t.name, t.name)]
            needs = TILE_TARGET.element_type_missing(t.name)
            if needs is not None:
                raise err(t.loc, f"`{t.name}` needs sm_{needs} (Blackwell); this build targets {TILE_TARGET.chip}: "
                                 f"its tensor-core instructions do not exist on this chip")
        raise err(t.loc, f"unknown element type; tile kernels use {', '.join(SCALARS)} or a generic `E`")

    def _tensor_args(self, t: ast.PathTy) -> tuple[Scalar, tuple[int, ...]]:
        if len(t.args) != 2:
            raise err(t.loc, f"`{t.name}` takes an element type and a shape: `{t.name}<E, {{[128, 64]}}>`")
        arg = t.args[0]
        if isinstance(arg, ast.PathTy) and arg.name in SCALAR_ALIASES:  # a scalar type, not an ElementType
            raise err(arg.loc, f"`{arg.name}` is not a tile element type; use `i32`/`u32` or `i64`/`u64`")
        return self.scalar_type(arg), tuple(self.shape_value(t.args[1]))

    def shape_value(self, e: Any) -> list[int]:
        """A compile-time shape (`{[128, 64]}`, `const_shape![BM, BN]`, a shape generic or `const`): integers
        from -1 (a dynamic tensor dimension) to MAX_DIM; whether a use allows -1 or needs powers of two is
        checked where the shape is used."""
        shape = self.const_value(e)
        if not isinstance(shape, list):
            raise err(e.loc, "a shape is a compile-time list of integers: `{[128, 64]}`, `{[BM, BN]}` or a "
                             "`const S: [i32; N]` generic")
        for d in shape:
            if type(d) is not int:
                raise err(e.loc, f"shape dimension `{d}` is not an integer: a shape is a list of integers such as "
                                 f"`{{[128, 64]}}`")
            if not -1 <= d <= MAX_DIM:
                raise err(e.loc, f"shape dimension {d} is out of range: dimensions are 1 to {MAX_DIM} (or -1 for a "
                                 f"dynamic tensor dimension)")
        return shape

    # Compile-time values ---------------------------------------------------------------------------------
    def const_value(self, e: Any) -> Any:
        """The compile-time value of a const expression, type argument or shape: int, float, bool or list."""
        if isinstance(e, ast.PathTy):
            e = ast.PathExpr(e.loc, [e.name])
        if isinstance(e, ast.Block) and not e.stmts and e.tail is not None:
            return self.const_value(e.tail)
        if isinstance(e, ast.ArrayLit) and e.repeat is None:
            return [self.const_value(x) for x in e.elems]
        if isinstance(e, ast.MacroCall) and e.name in SHAPE_MACROS:
            return [self.const_value(x) for x in e.args]
        if isinstance(e, ast.Lit) and e.kind in ("int", "float", "bool"):
            return e.value
        if isinstance(e, ast.PathExpr) and len(e.segments) == 1:
            name = e.segments[0]
            binding = self.lookup(name)
            if binding is not None:
                if isinstance(binding.v.ty, ShapeT):
                    return list(binding.v.shape)
                if binding.v.const is not None and not binding.mutable:
                    return binding.v.const
            elif name in self.generics and not isinstance(self.generics[name], Scalar):
                return self.generics[name]
            elif self.crate.const(name) is not None:
                return self.const_value(self.crate.const(name).value)
        if isinstance(e, ast.Unary) and e.op in ("-", "!"):
            inner = self._number(self.const_value(e.operand), e.operand.loc, e.op)
            if e.op == "!" and isinstance(inner, float):
                raise err(e.loc, "`!` applies to integers and bools, not floats")
            return -inner if e.op == "-" else (not inner if isinstance(inner, bool) else ~inner)
        if isinstance(e, ast.Binary):
            lhs = self._number(self.const_value(e.lhs), e.lhs.loc, e.op)
            rhs = self._number(self.const_value(e.rhs), e.rhs.loc, e.op)
            if e.op in ("<<", ">>") and not vals.shift_in_range(rhs, None):
                raise err(e.rhs.loc, f"this `{e.op}` shifts by {rhs}: a shift amount is from 0 to 127")
            out = vals.fold(e.op, lhs, rhs, None)
            if out is not None:
                return out
        if isinstance(e, ast.Cast):
            value = self._number(self.const_value(e.operand), e.operand.loc, "as")
            return vals.cast_const(value, self.scalar_type(e.target))
        raise err(e.loc, "expected a compile-time constant (a literal, a const generic or a `const` item)")

    @staticmethod
    def _number(value: Any, loc: Any, op: str) -> Any:
        """A compile-time operand of `op`, which must be a number or a bool (not a shape or array)."""
        if not isinstance(value, (int, float)):
            raise err(loc, f"`{op}` needs a number here, found a compile-time array `{value}`")
        return value

    def shape_arg(self, v: V, loc: Any) -> list[int]:
        """A tile shape given as an argument: `const_shape![..]`, `[a, b]` of constants, or a shape generic."""
        if isinstance(v.ty, ShapeT):
            return list(v.shape)
        if isinstance(v.ty, ArrayT) and all(type(p.const) is int for p in v.parts):
            return [p.const for p in v.parts]
        raise err(loc, "a tile shape must be known at compile time: `const_shape![128, 64]` or a `const` generic")

    # Statements and blocks -------------------------------------------------------------------------------
    def block(self, b: ast.Block, expected: Any = None) -> V:
        """Emit a block in its own scope; its value (unit without a tail)."""
        self.scopes.append({})
        try:
            return self.statements(b.stmts, b.tail, expected)
        finally:
            self.scopes.pop()

    def statements(self, stmts: list[Any], tail: Any, expected: Any = None) -> V:
        """Emit statements then the tail expression; what follows a `break`/`continue` runs guarded."""
        for i, stmt in enumerate(stmts):
            self.statement(stmt)
            rest = stmts[i + 1:]
            if (rest or tail is not None) and self.may_jump(stmt):
                self.guarded_rest(stmt, rest, tail)
                return UNIT_V
        if tail is None:
            return UNIT_V
        return self.expr(tail, expected)

    def statement(self, stmt: Any) -> None:
        """Emit one `let` or expression statement at its location."""
        with location(stmt.loc):
            if isinstance(stmt, ast.Let):
                self.let(stmt)
            elif isinstance(stmt, ast.ExprStmt):
                self.expr(stmt.expr)
            else:
                raise err(stmt.loc, "this statement is not supported in tile kernels")

    def let(self, stmt: ast.Let) -> None:
        """`let pattern (: T) = init;` (a retyped untyped literal takes its type from `retypes`)."""
        if stmt.init is None:
            raise err(stmt.loc, "a `let` in a tile kernel needs a value: `let x = ...;`")
        if stmt.else_ is not None:
            raise err(stmt.loc, "`let ... else` is not supported in tile kernels")
        expected = self.resolve_type(stmt.ty) if stmt.ty is not None else self.retypes.get(id(stmt))
        if expected is not None and annotations.is_annotation_only(expected):
            v = annotations.check(self.expr(stmt.init), expected, stmt.ty.loc)
        else:
            v = self.expr(stmt.init, expected)
            if expected is not None:
                v = coerce(v, expected, stmt.init.loc, "the value")
        self.bind_pattern(stmt.pattern, v, id(stmt))

    # Expressions -----------------------------------------------------------------------------------------
    def expr(self, e: Any, expected: Any = None) -> V:
        """Emit an expression; `expected` is the type its context wants (it types literals and generic ops)."""
        handler = EXPRESSIONS.get(type(e))
        if handler is None:
            raise err(e.loc, "this expression is not supported in tile kernels")
        with location(e.loc):
            return handler(self, e, expected)

    def x_Lit(self, e: ast.Lit, expected: Any) -> V:
        if e.kind == "str":
            raise err(e.loc, "string literals are not supported in tile kernels")
        v = vals.literal(e.value, e.kind, e.suffix, e.loc)
        if isinstance(v.ty, Flex) and isinstance(expected, Scalar):
            return coerce(v, expected, e.loc)
        return v

    def x_PathExpr(self, e: ast.PathExpr, expected: Any) -> V:
        if len(e.segments) == 1:
            name = e.segments[0]
            binding = self.lookup(name)
            if binding is not None:
                return binding.v
            if name in self.generics:
                bound = self.generics[name]
                if isinstance(bound, list):
                    return V(ShapeT(), shape=list(bound))
                if isinstance(bound, Scalar):
                    raise err(e.loc, f"`{name}` is a type, not a value")
                return self._const_generic_value(name, bound, e.loc)
            const = self.crate.const(name)
            if const is not None:
                return self._const_item(const)
            if name in OPTION_MARKERS:  # `None::<scope::TileBlock>`, `Latency::<0>`: optional and hint arguments
                return V(MarkerT(), const=name)
            raise err(e.loc, f"cannot find value `{name}` in this scope")
        if e.segments[0] in MARKER_MODULES:
            return V(MarkerT(), const="::".join(e.segments))
        if len(e.segments) == 2 and e.segments[1] in vals.SCALAR_CONSTS:
            ty = self.scalar_type(ast.PathTy(e.loc, e.segments[0]))
            return scalar_const(vals.scalar_constant(e.segments[1], ty), ty)
        raise err(e.loc, f"cannot find `{'::'.join(e.segments)}` in tile kernels")

    def _const_generic_value(self, name: str, value: Any, loc: Any) -> V:
        generic = next((g for g in self.fn.generics if g.name == name), None)
        ty = self.scalar_type(generic.const_ty) if generic is not None and generic.const_ty is not None else I32
        if isinstance(value, bool) or ty.is_bool:
            return scalar_const(bool(value), BOOL)
        return scalar_const(self._scalar_of(value, ty, loc), ty)

    @staticmethod
    def _scalar_of(value: Any, ty: Scalar, loc: Any) -> Any:
        """A compile-time value checked to be one of type `ty`: a number (an integer for an integer type)."""
        if isinstance(value, list) or (ty.is_int and isinstance(value, float)):
            shown = "an array" if isinstance(value, list) else f"the float `{value}`"
            raise err(loc, f"mismatched types: expected a `{rust_name(ty)}`, found {shown}")
        return value

    def _const_item(self, const: ast.ConstDef) -> V:
        if const.name not in self._consts:
            value = self.const_value(const.value)
            if isinstance(const.ty, ast.ArrayTy) and isinstance(value, list):  # `const S: [i32; 2] = [64, 64];`
                self._consts[const.name] = V(ShapeT(), shape=self.shape_value(const.value))
            else:
                ty = self.scalar_type(const.ty)
                self._consts[const.name] = scalar_const(self._scalar_of(value, ty, const.value.loc), ty)
        cached = self._consts[const.name]
        # A constant is materialized where it is used (its first use may sit in a branch).
        return scalar_const(cached.const, cached.ty) if isinstance(cached.ty, Scalar) else cached

    def x_MacroCall(self, e: ast.MacroCall, expected: Any) -> V:
        if e.name in SHAPE_MACROS:
            return V(ShapeT(), shape=self.shape_value(e))
        if e.name in ops_debug.PRINT_MACROS:
            return ops_debug.print_macro(self, e)
        raise err(e.loc, f"the macro `{e.name}!` is not supported in tile kernels")

    def x_Tuple(self, e: ast.Tuple, expected: Any) -> V:
        hints = expected.elems if isinstance(expected, TupleT) and len(expected.elems) == len(e.elems) else None
        parts = [self.expr(x, hints[i] if hints else None) for i, x in enumerate(e.elems)]
        return V(TupleT(tuple(p.ty for p in parts)), None, None, parts)

    def x_ArrayLit(self, e: ast.ArrayLit, expected: Any) -> V:
        if e.repeat is not None:
            count = self.const_value(e.repeat)
            if type(count) is not int or not 0 <= count <= _MAX_ARRAY_VALUE:
                raise err(e.repeat.loc, f"the length of `[x; N]` must be an integer from 0 to {_MAX_ARRAY_VALUE} "
                                        f"here (an array value holds indices or dimensions), got `{count}`")
            parts = [self.expr(e.elems[0])] * count
        else:
            parts = [self.expr(x) for x in e.elems]
        return V(ArrayT(), None, None, parts)

    def x_Block(self, e: ast.Block, expected: Any) -> V:
        return self.block(e, expected)

    def x_Field(self, e: ast.Field, expected: Any) -> V:
        base = self.expr(e.base)
        if isinstance(base.ty, TupleT) and e.name.isdigit() and int(e.name) < len(base.parts):
            return base.parts[int(e.name)]
        raise err(e.loc, f"`{rust_name(base.ty)}` has no field `{e.name}`")

    def x_Index(self, e: ast.Index, expected: Any) -> V:
        base = self.expr(e.base)
        if isinstance(base.ty, (DimsT, ShapeT, ArrayT)):
            i = self.const_value(e.index)
            size = len(base.shape) if isinstance(base.ty, ShapeT) else len(base.parts) if isinstance(base.ty, ArrayT) \
                else len(base.view.ty.shape)
            if not isinstance(i, int) or not 0 <= i < size:
                raise err(e.index.loc, f"index {i} is out of range for {size} dimensions")
            if isinstance(base.ty, ShapeT):
                return scalar_const(base.shape[i], I32)
            if isinstance(base.ty, ArrayT):
                return base.parts[i]
            return ops_memory.tensor_dim(base.view, i)
        raise err(e.loc, f"`{rust_name(base.ty)}` cannot be indexed; tiles are read with `extract` or loaded "
                         "through partitions")

    def x_Unary(self, e: ast.Unary, expected: Any) -> V:
        if e.op in ("&", "&mut", "*"):
            return self.expr(e.operand, expected)
        v = self.expr(e.operand, expected)
        elem = vals.elem_kind(v.ty)
        if isinstance(v.ty, Flex):
            if e.op == "-":
                return V(v.ty, None, -v.const)
            raise err(e.loc, f"cannot apply `{e.op}` to an untyped literal; add a suffix")
        if elem is None:
            raise err(e.loc, f"cannot apply `{e.op}` to `{rust_name(v.ty)}`")
        vals.refuse_fp8(v.ty, f"`{e.op}`", e.loc)
        if e.op == "-":
            if elem.is_bool or (elem.is_int and not elem.signed):
                raise err(e.loc, f"cannot negate `{rust_name(v.ty)}`")
            if isinstance(v.ty, Scalar) and v.const is not None:
                return scalar_const(-v.const, elem)
            if elem.is_float:
                return V(v.ty, arith.negf(v.value))
            zero = vals.tile_const(0, v.ty) if isinstance(v.ty, TileT) else scalar_const(0, elem)
            return V(v.ty, arith.subi(zero.value, v.value))
        if e.op == "!":
            if elem.is_float:
                raise err(e.loc, f"cannot apply `!` to `{rust_name(v.ty)}`")
            if isinstance(v.ty, Scalar) and v.const is not None:
                return scalar_const(not v.const if elem.is_bool else ~v.const, elem)
            ones = vals.tile_const(-1 if not elem.is_bool else 1, v.ty) if isinstance(v.ty, TileT) \
                else scalar_const(True if elem.is_bool else -1, elem)
            return V(v.ty, arith.xori(v.value, ones.value))
        raise err(e.loc, f"the operator `{e.op}` is not supported in tile kernels")

    def x_Binary(self, e: ast.Binary, expected: Any) -> V:
        hint = expected if e.op not in vals.COMPARISONS and e.op not in ("&&", "||") else None
        a = self.expr(e.lhs, hint)
        b = self.expr(e.rhs, a.ty if isinstance(a.ty, (Scalar, TileT)) and e.op not in ("<<", ">>") else hint)
        return self.binary(e.op, a, b, e.loc)

    def binary(self, op: str, a: V, b: V, loc: Any) -> V:
        """Rust's `a op b` on two scalars, or elementwise on two tiles of one shape and element type."""
        if isinstance(a.ty, TileT) or isinstance(b.ty, TileT):
            if not (isinstance(a.ty, TileT) and isinstance(b.ty, TileT)):
                scalar = b if isinstance(a.ty, TileT) else a
                raise err(loc, f"`{op}` between a tile and a scalar (`{rust_name(scalar.ty)}`); lift the scalar "
                               f"with `x.broadcast(shape)` or `broadcast_scalar(x, shape)`")
            if a.ty.shape != b.ty.shape:
                raise err(loc, f"`{op}` between tiles of shapes {list(a.ty.shape)} and {list(b.ty.shape)}; tile "
                               f"operators need one shape: `broadcast` the smaller one first")
            if a.ty.elem != b.ty.elem:
                vals.retype_tile(a, b.ty)
                vals.retype_tile(b, a.ty)
                raise err(loc, f"`{op}` between tiles of `{a.ty.elem.rust()}` and `{b.ty.elem.rust()}`; convert "
                               f"one with `convert_tile`")
            if op in vals.COMPARISONS:
                raise err(loc, f"tiles are compared with `eq_tile`/`ne_tile`/`lt_tile`/... , not `{op}`")
            vals.refuse_fp8(a.ty, f"`{op}`", loc)
            value = vals.arith_binary(op, a.value, b.value, a.ty.elem, loc, a.ty.rust())
            return V(a.ty, value, origin=a.origin or b.origin)
        for x in (a, b):
            if not isinstance(x.ty, (Scalar, Flex)):
                raise err(loc, f"`{op}` is not defined on `{rust_name(x.ty)}`")
        if op in ("<<", ">>"):
            a = concrete(a) if isinstance(a.ty, Flex) and not isinstance(b.ty, Flex) else a
            b = coerce(b, a.ty, loc) if isinstance(a.ty, Scalar) and isinstance(b.ty, Flex) else b
        a, b = vals.unify_scalars(a, b, loc, op)
        if op in ("/", "%") and isinstance(b.const, int) and not isinstance(b.const, bool) and b.const == 0:
            raise err(loc, f"this `{op}` divides by zero")
        result_ty = BOOL if op in vals.COMPARISONS else a.ty
        if op in ("&&", "||") and a.ty != BOOL:
            raise err(loc, f"`{op}` takes `bool` operands, found `{rust_name(a.ty)}`")
        if a.const is not None and b.const is not None:
            if op in ("<<", ">>") and not vals.shift_in_range(b.const, a.ty):
                raise err(loc, f"this `{op}` shifts a `{rust_name(a.ty)}` by {b.const}, which overflows: the shift "
                               f"amount must be below the bit width")
            folded = vals.fold(op, a.const, b.const, result_ty)
            if folded is not None:
                return V(result_ty, None, folded) if isinstance(result_ty, Flex) else scalar_const(folded, result_ty)
        a, b = concrete(a), concrete(b)
        value = vals.arith_binary(op, a.value, b.value, a.ty, loc, a.ty.rust())
        if op in vals.COMPARISONS:
            return V(BOOL, value)
        return V(a.ty, value, origin=a.origin or b.origin)

    def x_Cast(self, e: ast.Cast, expected: Any) -> V:
        target = self.resolve_type(e.target)
        v = self.expr(e.operand, target if isinstance(target, Scalar) else None)
        if not isinstance(target, Scalar) or not isinstance(v.ty, (Scalar, Flex)):
            raise err(e.loc, f"`as` converts scalars; `{rust_name(v.ty)} as {rust_name(target)}` is not supported "
                             f"(tiles convert with `convert_tile`)")
        if isinstance(v.ty, Flex):
            if v.ty.kind == "float" and not target.is_float:
                return scalar_const(int(v.const), target)
            return coerce(v, target, e.loc)
        if target.is_bool and not v.ty.is_bool:
            raise err(e.loc, f"cannot cast `{v.ty.rust()}` as `bool`; compare it instead")
        return vals.convert(v, target, e.loc)

    def x_Assign(self, e: ast.Assign, expected: Any) -> V:
        if not (isinstance(e.target, ast.PathExpr) and len(e.target.segments) == 1):
            raise err(e.target.loc, "tile kernels assign to variables only (tiles are immutable values)")
        name = e.target.segments[0]
        binding = self.lookup(name)
        if binding is None:
            raise err(e.target.loc, f"cannot find value `{name}` in this scope")
        if not binding.mutable:
            raise err(e.target.loc, f"cannot assign twice to immutable variable `{name}`; declare it `let mut {name}`")
        hint = binding.v.ty if not isinstance(binding.v.ty, Flex) else None
        value = self.expr(e.value, hint)
        if e.op is not None:
            value = self.binary(e.op, binding.v, value, e.loc)
        self.assign(binding, value, e.value.loc)
        return UNIT_V

    def assign(self, binding: Binding, value: V, loc: Any) -> None:
        """Give a variable a new value; its type stays (an untyped literal's takes the first concrete one)."""
        old = binding.v
        if isinstance(old.ty, Flex):
            binding.v = value if not isinstance(value.ty, Flex) else V(old.ty, None, value.const)
            return
        binding.v = coerce(value, old.ty, loc, f"the new value of `{binding.name}`")

    def x_Call(self, e: ast.Call, expected: Any) -> V:
        return ops.call(self, e, expected)

    def x_MethodCall(self, e: ast.MethodCall, expected: Any) -> V:
        return ops.dispatch_method(self, e, expected)

    def x_Return(self, e: ast.Return, expected: Any) -> V:
        raise err(e.loc, "`return` is not supported in tile kernels; let the body end with its value "
                         "(or structure it with `if`/`else`)")

    def x_Closure(self, e: ast.Closure, expected: Any) -> V:
        # A closure is a compile-time value: `reduce`/`scan` read which combining operation it is.
        return V(ClosureT(), const=e)

    def x_Match(self, e: ast.Match, expected: Any) -> V:
        raise err(e.loc, "`match` is not supported in tile kernels; use `if`/`else if`")

    # Helper functions ------------------------------------------------------------------------------------
    def inline(self, fn: ast.Function, args: list[V], explicit: list[Any], loc: Any, expected: Any) -> V:
        """Inline a helper function's body with its parameters bound to `args`."""
        if len(args) != len(fn.params):
            raise err(loc, f"`{fn.name}` takes {len(fn.params)} argument(s), {len(args)} given")
        if self.depth >= _MAX_INLINE_DEPTH:
            raise err(loc, f"helper calls nest deeper than {_MAX_INLINE_DEPTH} (is `{fn.name}` recursive?)")
        generics: dict[str, Any] = {}
        if explicit:
            if len(explicit) != len(fn.generics):
                raise err(loc, f"`{fn.name}` has {len(fn.generics)} generic parameter(s), {len(explicit)} given")
            for g, arg in zip(fn.generics, explicit):
                generics[g.name] = self.const_value(arg) if g.const_ty is not None else self.scalar_type(arg)
        names = {g.name for g in fn.generics}
        for p, v in zip(fn.params, args):
            _unify(p.ty, v, names, generics)
        if fn.ret is not None and isinstance(expected, (Scalar, TileT)):
            _unify(fn.ret, V(expected), names, generics)
        missing = [g.name for g in fn.generics if g.name not in generics]
        if missing:
            raise err(loc, f"cannot infer the generic parameter(s) {', '.join(missing)} of `{fn.name}`; name them: "
                           f"`{fn.name}::<...>(..)`")
        saved = (self.scopes, self.generics, self.loops, self.fn)
        self.scopes, self.generics, self.loops, self.fn = [{}], generics, [], fn
        self.depth += 1
        try:
            for p, v in zip(fn.params, args):
                ty = self.resolve_type(p.ty)
                if isinstance(v.ty, Flex) or isinstance(ty, Scalar):
                    v = coerce(v, ty, loc, f"the argument for `{param_name(p)}`")
                self.bind_pattern(p.pattern, v)
            ret = self.resolve_type(fn.ret) if fn.ret is not None else None
            out = self.block(fn.body, ret)
            if ret is not None:
                out = coerce(out, ret, fn.body.tail.loc if fn.body.tail is not None else fn.loc, "the result")
            return out
        finally:
            self.scopes, self.generics, self.loops, self.fn = saved
            self.depth -= 1


# The emitter of each kind of expression, by AST class (an expression of another class is not supported).
EXPRESSIONS: dict[type, Callable[[Emitter, Any, Any], V]] = {
    ast.If: ControlFlow.x_If, ast.Break: ControlFlow.x_Break, ast.Continue: ControlFlow.x_Continue,
    ast.For: ControlFlow.x_For, ast.While: ControlFlow.x_While, ast.Loop: ControlFlow.x_Loop,
    ast.Lit: Emitter.x_Lit, ast.PathExpr: Emitter.x_PathExpr, ast.MacroCall: Emitter.x_MacroCall,
    ast.Tuple: Emitter.x_Tuple, ast.ArrayLit: Emitter.x_ArrayLit, ast.Block: Emitter.x_Block,
    ast.Field: Emitter.x_Field, ast.Index: Emitter.x_Index, ast.Unary: Emitter.x_Unary,
    ast.Binary: Emitter.x_Binary, ast.Cast: Emitter.x_Cast, ast.Assign: Emitter.x_Assign, ast.Call: Emitter.x_Call,
    ast.MethodCall: Emitter.x_MethodCall, ast.Return: Emitter.x_Return, ast.Closure: Emitter.x_Closure,
    ast.Match: Emitter.x_Match,
}


def _unify(pattern: Any, v: V, names: set[str], out: dict[str, Any]) -> None:
    """Bind a helper's generic parameters from an argument's type (`Tile<E, {[BM, BN]}>` against a
    `Tile<f32, {[64, 32]}>` binds E = f32, BM = 64, BN = 32)."""
    ty = v.ty
    if isinstance(pattern, (ast.RefTy, ast.PtrTy)):
        _unify(pattern.inner, v, names, out)
        return
    if not isinstance(pattern, ast.PathTy):
        return
    if pattern.name in names and not pattern.args:
        if isinstance(ty, Scalar):
            out.setdefault(pattern.name, ty)
        return
    if pattern.name in ("Tile", "Tensor") and len(pattern.args) == 2 and isinstance(ty, (TileT, ViewT)):
        elem, shape = pattern.args
        if isinstance(elem, ast.PathTy) and elem.name in names:
            out.setdefault(elem.name, ty.elem)
        if isinstance(shape, ast.PathTy) and shape.name in names:
            out.setdefault(shape.name, list(ty.shape))
            return
        dims = shape.tail if isinstance(shape, ast.Block) and not shape.stmts else shape
        if isinstance(dims, ast.ArrayLit) and len(dims.elems) == len(ty.shape):
            for d, size in zip(dims.elems, ty.shape):
                if isinstance(d, ast.PathExpr) and len(d.segments) == 1 and d.segments[0] in names:
                    out.setdefault(d.segments[0], size)
