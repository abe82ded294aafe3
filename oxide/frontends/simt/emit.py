"""AST -> simt + scf/arith/math/memref: names and types are checked while the IR is built.

One FunctionEmitter per kernel. Device functions, helpers and methods are inlined at their call sites
(monomorphised by the argument types), so simt handles never cross a call. Control flow is structured:
`if` -> scf.if, loops -> scf.for / scf.while; `break`, `continue` and early `return` set flags (rank-0
memrefs) that guard the rest of their block and end the loops. Mutable locals live in memrefs, which
LLVM promotes to registers.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import branch_results, type_resolution
from oxide.frontends.simt import types as T
from oxide.frontends.simt import loops  # noqa: F401  (loops and jumps register their handlers)
from oxide.frontends.simt.emit_places import unsize, unsize_snapshot
from oxide.frontends.simt.emit_support import Scope, i1, index, int_attr
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions import (  # noqa: F401  (each registers its handlers in EMITTERS)
    access, aggregates, assignment, branches, calls, casts, closures, literals, operators, patterns, ranges,
)
from oxide.frontends.simt.expressions.inference import unsuffixed_literal
from oxide.frontends.simt.expressions.literals import e_Lit
from oxide.frontends.simt.expressions.patterns import expand_rest, match_pattern, referent
from oxide.frontends.simt.expressions.table import EMITTERS
from oxide.frontends.simt.local_slices import borrow_array
from oxide.frontends.simt.places import shared_pointer
from oxide.frontends.simt.type_resolution import HANDLES
from oxide.frontends.simt.values import Cell, Val, load_cell, new_cell, read_flag, store_cell
from oxide.frontends.structured import Frame, live_flags, may_jump
from oxide.frontends.structured import walk as _walk
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.items import Crate
from oxide.frontends.kernel_module import Retype, location
from oxide.diagnostics import SourceLoc


class FunctionEmitter:
    """Emits one kernel body (and everything it inlines) at the current insertion point."""

    def __init__(self, crate: Crate, kernel: ast.Function, unchecked: bool):
        self.crate = crate
        self.kernel = kernel
        self.unchecked = unchecked
        self.scopes: list[Scope] = [Scope()]
        self.frames: list[Frame] = []
        self.generics: list[dict[str, Any]] = [{}]
        self.inline_depth: list[str] = []
        self.inline_fns: list[ast.Function] = []  # the inlined functions being emitted, innermost last
        # Witness bindings already moved (safety.use_binding), and whether a method receiver is being read.
        self.witness_moves: dict[tuple[int, str], tuple[str, ir.Block]] = {}
        self.borrowing_witness = False
        self.statics: dict[str, Val] = {}
        self.in_unsafe = False
        self.entry: ir.Block | None = None
        self.retypes: dict[int, T.Ty] = {}
        self.types_resolving: list[str] = []  # the structs and enums being resolved (type_resolution.py)

    # Names ---------------------------------------------------------------------------------------------
    def bind(self, name: str, value: Any) -> None:
        self.scopes[-1].names[name] = value

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope.names:
                return scope.names[name]
        return None

    def push(self) -> None:
        self.scopes.append(Scope())

    def pop(self) -> None:
        self.scopes.pop()

    # Types (type_resolution.py) ------------------------------------------------------------------------
    def resolve_type(self, t: Any) -> T.Ty:
        """The semantic type of a written type."""
        return type_resolution.resolve_type(self, t)

    def scalar_element(self, t: Any, container: str) -> T.Ty:
        """The element type of a slice, DisjointSlice, SharedArray or raw pointer."""
        return type_resolution.scalar_element(self, t, container)

    def const_arg(self, e: Any) -> int:
        """A compile-time integer: a literal, a const generic, a `const` item, or arithmetic on them."""
        return type_resolution.const_arg(self, e)

    def length_arg(self, e: Any) -> int:
        """An array or shared-array length: a compile-time integer from 0 to MAX_LENGTH."""
        return type_resolution.length_arg(self, e)

    def align_arg(self, e: Any, what: str) -> int:
        """A shared-memory alignment: a compile-time power of two."""
        return type_resolution.align_arg(self, e, what)

    def assoc_const(self, qualifier: str, name: str) -> ast.ConstDef | None:
        """`Q::NAME` where Q is a type (or a generic parameter bound to one) with an associated const NAME."""
        return type_resolution.assoc_const(self, qualifier, name)

    def struct_type(self, struct: ast.StructDef, args: list[T.Ty]) -> T.Struct:
        return type_resolution.struct_type(self, struct, args)

    def enum_type(self, enum: ast.EnumDef) -> T.Enum | T.DataEnum:
        return type_resolution.enum_type(self, enum)

    # Statements ----------------------------------------------------------------------------------------
    def block(self, block: ast.Block, expected: T.Ty | None = None) -> Val:
        """Emit a block; its value is the tail expression's (or `()`)."""
        self.push()
        was_unchecked = self.unchecked
        try:
            return self._statements(block.stmts, block.tail, expected)
        finally:
            self.unchecked = was_unchecked
            self.pop()

    def _statements(self, stmts: list[Any], tail: ast.Expr | None, expected: T.Ty | None) -> Val:
        for i, stmt in enumerate(stmts):
            self.statement(stmt)
            if may_jump(stmt) and (i + 1 < len(stmts) or tail is not None) and self.frames:
                return self._guarded_rest(stmts[i + 1 :], tail, expected)
        if tail is None:
            return Val(T.UNIT, None)
        return self.expr(tail, expected)

    def _guarded_rest(self, stmts: list[Any], tail: ast.Expr | None, expected: T.Ty | None) -> Val:
        """The rest of a block after a statement that may jump: it runs only if no jump is pending."""
        go_on = self.no_jump_pending()
        if tail is None:
            branch = scf.IfOp(go_on)
            with ir.InsertionPoint(branch.then_block):
                self._statements(stmts, tail, expected)
                scf.YieldOp([])
            return Val(T.UNIT, None)
        result: Cell | None = None
        value_ty: T.Ty | None = None
        branch = scf.IfOp(go_on)
        with ir.InsertionPoint(branch.then_block):
            value = self._statements(stmts, tail, expected)
            value_ty = value.ty
            if not branch_results.yields_in_registers(value.ty):
                try:
                    with ir.InsertionPoint.at_block_begin(self.entry_block()):
                        result = new_cell(value.ty)
                except TypeError:
                    raise err(tail.loc, f"a block that may return early and then yields a `{value.ty}` is not "
                                        "supported in device code; compute the value after the block") from None
                store_cell(result, value)
            scf.YieldOp([])
        if branch_results.yields_in_registers(value_ty):
            return branch_results.with_results(branch, value_ty, {0: value})
        return load_cell(result) if result is not None else Val(value_ty or T.UNIT, None)

    def entry_block(self) -> ir.Block:
        return self.entry

    def no_jump_pending(self, ignore_continue_of: Frame | None = None) -> ir.Value:
        """True when no break, continue or return of the current function is in flight."""
        pending = i1(False)
        for flag in live_flags(self.frames, ignore_continue_of):
            pending = arith.ori(pending, read_flag(flag))
        return arith.xori(pending, i1(True))

    def statement(self, stmt: Any) -> None:
        if isinstance(stmt, ast.Let):
            self.let(stmt)
        elif isinstance(stmt, ast.ExprStmt):
            self.expr(stmt.expr)
        elif isinstance(stmt, ast.StaticShared):
            self.static_shared(stmt)
        else:
            raise err(stmt.loc, "unsupported statement")

    def let(self, stmt: ast.Let) -> None:
        if stmt.else_ is not None:
            self.let_else(stmt)
            return
        declared = self.resolve_type(stmt.ty) if stmt.ty is not None else None
        if stmt.init is None:
            if not isinstance(stmt.pattern, ast.BindPat) or declared is None:
                raise err(stmt.loc, "a `let` without a value needs a plain name and a type")
            with ir.InsertionPoint.at_block_begin(self.entry):
                cell = new_cell(declared)
            self.bind(stmt.pattern.name, cell)
            return
        flexible = declared is None and unsuffixed_literal(stmt.init)
        if flexible and id(stmt) in self.retypes:
            declared = self.retypes[id(stmt)]
        value = self.expr(stmt.init, declared)
        if declared is not None:
            value = self.coerce(value, declared, stmt.init.loc)
        if flexible and id(stmt) not in self.retypes:
            # Rust infers the literal's type from later uses; a clash there re-emits with the right type.
            value.flex = id(stmt)
        self.bind_pattern(stmt.pattern, value)

    def let_else(self, stmt: ast.Let) -> None:
        """`let P = v else { diverge };`: the else block runs (and must jump, return or panic) when P fails;
        the rest of the block is guarded like any statement that may jump."""
        value = self.expr(stmt.init)
        ok, binds = match_pattern(self, stmt.pattern, value)
        branch = scf.IfOp(arith.xori(ok, i1(True)))
        with ir.InsertionPoint(branch.then_block):
            result = self.block(stmt.else_)
            if not isinstance(result.ty, T.Never) and not may_jump(stmt.else_):
                if not any(isinstance(n, ast.MacroCall) and n.name in ("panic", "unreachable", "todo", "unimplemented")
                           for n in _walk(stmt.else_)):
                    raise err(stmt.else_.loc, "the `else` block of `let ... else` must diverge (return, break, "
                                              "continue or panic)")
            scf.YieldOp([])
        for pattern, bound in binds:
            self.bind_pattern(pattern, bound)

    def bind_pattern(self, pattern: Any, value: Val) -> None:
        if isinstance(pattern, ast.BindPat):
            # `mut` on a handle (slice, DisjointSlice, pointer, witness) only allows `&mut self` methods;
            # the handle itself is never reassigned, so it stays an SSA value.
            if pattern.mutable and (not isinstance(value.ty, HANDLES) or isinstance(value.ty, T.Ptr)):
                try:
                    with ir.InsertionPoint.at_block_begin(self.entry):
                        cell = new_cell(value.ty)
                except TypeError as exc:
                    raise err(pattern.loc, f"{exc} is not supported as `mut`") from None
                store_cell(cell, value)
                cell.flex = getattr(value, "flex", None)
                self.bind(pattern.name, cell)
            else:
                self.bind(pattern.name, self.owned(value))
        elif isinstance(pattern, ast.WildPat):
            return
        elif isinstance(pattern, ast.TuplePat):
            if not pattern.elems and isinstance(value.ty, T.Unit):
                return  # `()` matches the unit value
            elems = expand_rest(pattern.elems, len(value.ty.elems)) if isinstance(value.ty, T.Tuple) else pattern.elems
            if not isinstance(value.ty, T.Tuple) or len(value.ty.elems) != len(elems):
                raise err(pattern.loc, f"a tuple pattern of {len(pattern.elems)} cannot match a value of type {value.ty}")
            for sub, part in zip(elems, value.v):
                self.bind_pattern(sub, part)
        elif isinstance(pattern, ast.RefPat):
            self.bind_pattern(pattern.inner, referent(self, value))
        else:
            raise err(pattern.loc, "this pattern is refutable; use `if let` or `match`")

    def owned(self, value: Val) -> Val:
        """`value` with its arrays copied: arrays are values in Rust, so a binding must not see later writes
        to the array it was read from (`let row = m[1]; m[1][0] = 5.0;` leaves `row` unchanged)."""
        if isinstance(value.ty, T.Array):
            with ir.InsertionPoint.at_block_begin(self.entry):
                cell = new_cell(value.ty)
            store_cell(cell, value)
            return load_cell(cell)
        if isinstance(value.ty, (T.Tuple, T.Struct)) and any(_holds_array(p.ty) for p in value.v):
            return Val(value.ty, [self.owned(p) for p in value.v])
        return value

    def static_shared(self, stmt: ast.StaticShared) -> None:
        ty = self.resolve_type(stmt.ty)
        if isinstance(ty, T.Shared):
            if stmt.name not in self.statics:
                # At least the element's own alignment (an over-aligned struct's), as in Rust.
                align = max(ty.align or 4, T.layout(ty.elem)[1])
                # Named location: diagnostics about the array (races) can call it by its Rust name.
                with ir.InsertionPoint.at_block_begin(self.entry), location(stmt.loc), \
                        ir.Location.name(stmt.name, childLoc=ir.Location.current):
                    handle = simt.SharedArrayOp.build(align=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), align),
                                                      results=[ty.mlir()])
                self.statics[stmt.name] = Val(ty, handle)
            self.bind(stmt.name, self.statics[stmt.name])
        elif isinstance(stmt.ty, ast.PathTy) and stmt.ty.name == "DynamicSharedArray":
            raise err(stmt.loc, "`DynamicSharedArray` is used through `DynamicSharedArray::<T, ALIGN>::get()`")
        else:
            raise err(stmt.loc, f"a `static mut` of type `{ty}` is not supported in device code (only SharedArray shared memory)")

    # Expressions ---------------------------------------------------------------------------------------
    def expr(self, e: ast.Expr, expected: T.Ty | None = None) -> Val:
        handler = EMITTERS.get(type(e))
        if handler is None:
            raise err(e.loc, f"{type(e).__name__} expressions are not supported in device code")
        with location(e.loc):
            value = handler(self, e, expected)
        e.ty = value.ty
        return value

    def coerce(self, value: Val, ty: T.Ty, loc: SourceLoc) -> Val:
        """`value` as type `ty`: equal types only (Rust has no implicit numeric conversions)."""
        if value.ty == ty or isinstance(value.ty, T.Never):
            return value
        if isinstance(value.ty, T.ResultTy) and isinstance(ty, T.ResultTy) and value.ty.ok == ty.ok:
            return value
        if isinstance(value.ty, T.CellPtr) and isinstance(ty, T.Ptr) and value.ty.elem == ty.elem \
                and (value.ty.mutable or not ty.mutable):
            return Val(T.CellPtr(ty.elem, ty.mutable), value.v)  # `let p: *const f32 = addr_of!(x);`
        if isinstance(value.ty, T.LocalRef) and isinstance(ty, T.ElemRef) and value.ty.elem == ty.elem:
            return value  # `&mut local` passed where `&mut T` is expected: the local's storage, in place
        if isinstance(value.ty, T.LocalPtr) and isinstance(ty, T.Ptr) and not ty.mutable and value.ty.elem == ty.elem:
            return value  # `arr.as_ptr()` passed as a `*const T`: still the position in the local array
        if isinstance(value.ty, T.Shared) and isinstance(ty, T.Ptr) \
                and ty.elem == T.Array(value.ty.elem, value.ty.length):
            return shared_pointer(value, ty.mutable)  # `&raw mut TILE` passed as a `*mut SharedArray<T, N>`
        if isinstance(value.ty, T.Ptr) and isinstance(ty, T.Ptr) and value.ty.elem == ty.elem \
                and (value.ty.mutable or not ty.mutable):
            # A pointer keeps the address space it points into; `*mut T` also passes as `*const T`.
            return Val(T.Ptr(ty.elem, ty.mutable, value.ty.space), value.v)
        literal = getattr(value, "literal", None)
        if literal is not None and isinstance(ty, T.Int if literal.kind == "int" else T.Float):
            return e_Lit(self, literal, ty)  # an unsuffixed literal typed by where it goes (`(raw, (2, 3))`)
        if isinstance(value.ty, T.Tuple) and isinstance(ty, T.Tuple) and len(value.ty.elems) == len(ty.elems):
            return Val(ty, [self.coerce(part, want, loc) for part, want in zip(value.v, ty.elems)])
        if isinstance(ty, T.Slice):
            window = borrow_array(value, ty)
            if window is not None:
                return window  # `&arr` / `&mut arr` of a local array where `&[T]` is expected
            if isinstance(value.ty, (T.LocalSlice, T.PtrSlice)) and value.ty.elem == ty.elem \
                    and (value.ty.mutable or not ty.mutable):
                return value  # a slice of registers or of shared/generic memory passed to a `&[T]` parameter
        if isinstance(value.ty, T.FnItem) and isinstance(ty, T.FnPtr):
            return value  # the function item itself: calls through it are inlined
        if isinstance(value.ty, (T.PlaceRef, T.ElemRef, T.Shared)):
            as_slice = unsize(value, ty)
            if as_slice is not None:
                return as_slice  # `let s: &mut [f32] = row;` of an array in memory
            as_slice = unsize_snapshot(self, value, ty, loc)
            if as_slice is not None:
                return as_slice  # `sum(&TILE[0])`, `sum(&TILE)`: a shared array read where `&[T]` is expected
            if isinstance(value.ty, T.PlaceRef) and ty == value.ty.elem:
                return value  # `let row: &[f32; N] = &TILE[0];`: stays a reference to the memory it reads
            if isinstance(ty, T.ElemRef) and ty.elem == value.ty.elem \
                    and (isinstance(value.ty, T.ElemRef) or value.ty.mutable):
                return value  # a `&mut T` into memory passed where `&mut T` is expected
        if getattr(value, "flex", None) is not None and isinstance(ty, (T.Int, T.Float)):
            raise Retype(value.flex, ty)
        raise err(loc, f"mismatched types: expected `{ty}`, found `{value.ty}`")

    def require_unsafe(self, loc: SourceLoc, what: str) -> None:
        """Raise unless inside an `unsafe` block (or an unsafe context)."""
        if not self.in_unsafe:
            raise err(loc, f"{what} is unsafe and requires an `unsafe` block")

    # Checks and closures -------------------------------------------------------------------------------
    def trap_unless(self, ok: ir.Value) -> None:
        branch = scf.IfOp(arith.xori(ok, i1(True)))
        with ir.InsertionPoint(branch.then_block):
            simt.TrapOp.build()
            scf.YieldOp([])

    def check_division(self, a: Val, b: Val, ty: T.Int) -> None:
        """Rust panics (here: traps) on division by zero and on MIN / -1."""
        zero = arith.constant(ty.mlir(), int_attr(ty.mlir(), 0))
        ok = arith.cmpi(arith.CmpIPredicate.ne, b.v, zero)
        if ty.signed:
            minimum = arith.constant(ty.mlir(), int_attr(ty.mlir(), -(1 << (ty.bits - 1))))
            minus_one = arith.constant(ty.mlir(), int_attr(ty.mlir(), -1))
            overflow = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, a.v, minimum),
                                  arith.cmpi(arith.CmpIPredicate.eq, b.v, minus_one))
            ok = arith.andi(ok, arith.xori(overflow, i1(True)))
        self.trap_unless(ok)

    def check_array_bounds(self, i: ir.Value, length: int) -> None:
        if not self.unchecked:
            self.trap_unless(arith.cmpi(arith.CmpIPredicate.ult, i, index(length)))

    def call_closure(self, closure: Val, args: list[ast.Expr], loc: Any) -> Val:
        """Inline a closure's body with its parameters bound, in the scopes it was created in."""
        node, scopes, generics = closure.v
        if len(args) != len(node.params):
            raise err(loc, f"this closure takes {len(node.params)} argument(s) but {len(args)} were supplied")
        values = []
        for p, a in zip(node.params, args):
            want = self.resolve_type(p.ty) if p.ty is not None else None
            v = self.expr(a, want)
            values.append(self.coerce(v, want, a.loc) if want is not None else v)
        outer_scopes, self.scopes = self.scopes, scopes + [self.scopes[0].__class__()]
        self.generics.append(generics)
        try:
            for p, v in zip(node.params, values):
                self.bind_pattern(p.pattern, v)
            return self.expr(node.body)
        finally:
            self.generics.pop()
            self.scopes = outer_scopes














def _holds_array(ty: T.Ty) -> bool:
    if isinstance(ty, T.Array):
        return True
    if isinstance(ty, T.Tuple):
        return any(_holds_array(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return any(_holds_array(f) for _, f in ty.fields)
    return False
