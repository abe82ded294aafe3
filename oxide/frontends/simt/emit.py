"""AST -> simt + scf/arith/math/memref: names and types are checked while the IR is built.

One FunctionEmitter per kernel. Device functions, helpers and methods are inlined at their call sites
(monomorphised by the argument types), so simt handles never cross a call. Control flow is structured:
`if` -> scf.if, loops -> scf.for / scf.while; `break`, `continue` and early `return` set flags (rank-0
memrefs) that guard the rest of their block and end the loops. Mutable locals live in memrefs, which
LLVM promotes to registers.
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any, Callable, Iterator

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import safety
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.items import Crate
from oxide.frontends.kernel_module import Retype, location
from oxide.frontends.simt.emit_support import Scope, err, i1, unknown_type
from oxide.frontends.structured import Frame, may_jump
from oxide.frontends.structured import walk as _walk
from oxide.frontends.simt.values import Val, load_cell, new_cell, store_cell
from oxide.ir.diagnostics import SourceLoc


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

    # Types ---------------------------------------------------------------------------------------------
    def resolve_type(self, t: Any) -> T.Ty:
        """The semantic type of a written type."""
        if isinstance(t, ast.PathTy):
            bound = self.generics[-1].get(t.name)
            if isinstance(bound, T.Ty):
                return bound
            if t.name in T.PRIMITIVES:
                return T.PRIMITIVES[t.name]
            if t.name == "!":
                return T.NEVER
            if t.name == "DisjointSlice":
                elem = self.scalar_element(t.args[0], "a DisjointSlice")
                return T.Disjoint(elem, self.space(t.args[1]) if len(t.args) > 1 else "1d")
            if t.name == "Option":
                return T.OptionTy(self.resolve_type(t.args[0]))
            if t.name == "Range" and len(t.args) == 1:
                from oxide.frontends.simt.emit_expr import range_type

                return range_type(self.resolve_type(t.args[0]))
            if t.name == "MaybeUninit" and len(t.args) == 1:
                # A local that may be uninitialised: its storage is the T's (reading before writing is UB in
                # Rust; here it reads whatever the local holds).
                return self.resolve_type(t.args[0])
            if t.name == "Infallible":
                return T.NEVER
            if t.name == "Uniform" and len(t.args) == 1:
                # A launch-uniform value is its value here (uniformity is not tracked yet); the host passes T.
                return self.resolve_type(t.args[0])
            if t.name == "SharedArray":
                align = self.align_arg(t.args[2], "`SharedArray`") if len(t.args) > 2 else 0
                return T.Shared(self.scalar_element(t.args[0], "a SharedArray"), self.length_arg(t.args[1]), align)
            if t.name in T.ATOMICS:
                scope, value = T.ATOMICS[t.name]
                return T.Atomic(value, scope)
            if t.name == "ThreadIndex":
                return T.ThreadIndex(self.space(t.args[-1]) if t.args else "1d")
            if t.name == "Self" and "Self" in self.generics[-1]:
                return self.generics[-1]["Self"]
            struct = self.crate.struct(t.name)
            if struct is not None:
                return self.struct_type(struct, [self.resolve_type(a) for a in t.args])
            enum = self.crate.enum(t.name)
            if enum is not None:
                return self.enum_type(enum)
            if t.name == "Ordering":
                return T.ORDERING  # core::cmp::Ordering (a user's own `Ordering` item was found above)
            from oxide.frontends.simt.intrinsics.device_types import device_type

            device = device_type(self, t)
            if device is not None:
                return device
            self_ty = self.generics[-1].get("Self")
            if isinstance(self_ty, T.Ty):
                # `Self::Output` inside an impl: the impl's associated type (the path's last segment names it).
                assoc = self.crate.assoc_type(getattr(self_ty, "name", self_ty.rust()).split("<")[0], t.name)
                if assoc is not None:
                    return self.resolve_type(assoc)
            if t.name in ("Vec", "Box", "String", "HashMap", "Rc", "Arc"):
                raise err(t.loc, f"heap allocation (`{t.name}`) is not supported in device code")
            raise unknown_type(self.crate, t.loc, t.name)
        if isinstance(t, ast.RefTy):
            if isinstance(t.inner, ast.SliceTy):
                return T.Slice(self.scalar_element(t.inner.elem, "a slice"), t.mutable)
            inner = self.resolve_type(t.inner)
            if isinstance(inner, _HANDLES):
                return inner  # `&mut DisjointSlice<T>` / `&SharedArray`: the handle already refers to the memory
            if t.mutable:
                return T.ElemRef(inner)
            return inner  # `&T` of a Copy value is passed by value
        if isinstance(t, ast.ArrayTy):
            elem = self.resolve_type(t.elem)
            safety.check_stored(elem, getattr(t, "loc", None), "an array")
            return T.Array(elem, self.length_arg(t.length))
        if isinstance(t, ast.TupleTy):
            return T.UNIT if not t.elems else T.Tuple(tuple(self.resolve_type(e) for e in t.elems))
        if isinstance(t, ast.PtrTy):
            pointee = self.resolve_type(t.inner)
            if isinstance(pointee, T.Unit):
                return T.Ptr(T.UNIT, t.mutable, 1)  # `*const ()`: an address only, never read through
            if isinstance(t.inner, ast.PtrTy) and not t.mutable:
                # `*const *const T`: only a local array of pointers has one (local_pointers.py); it is never
                # read through memory.
                return T.Ptr(pointee, False, 1)
            if isinstance(pointee, T.Shared):
                # `*mut SharedArray<T, N>`: a pointer to the array, in shared memory (places.shared_pointer).
                return T.Ptr(T.Array(pointee.elem, pointee.length), t.mutable, 3)
            return T.Ptr(self.scalar_element(t.inner, "a raw pointer"), t.mutable, 1)
        if isinstance(t, ast.FnPtrTy):
            return T.FnPtr()
        if isinstance(t, ast.SliceTy):
            raise err(t.loc, "an unsized slice `[T]` must be behind a reference: `&[T]`")
        raise err(getattr(t, "loc", None), f"unsupported type {t}")

    def scalar_element(self, t: Any, container: str) -> T.Ty:
        """The element type of a slice, DisjointSlice, SharedArray or raw pointer: scalars, atomics, and
        arrays, tuples and structs built from scalars (laid out in memory as `T.mem` says)."""
        elem = self.resolve_type(t)
        if not isinstance(elem, T.Atomic) and not _in_memory(elem):
            raise err(getattr(t, "loc", None), f"{container} of `{elem}` elements is not supported in device code "
                                               "(elements must be integers, floats, bools, fieldless enums, or "
                                               "arrays, tuples and structs of them)")
        return elem

    def space(self, t: Any) -> str:
        if isinstance(t, ast.PathTy):
            if t.name == "Index1D":
                return "1d"
            if t.name == "Index2D":
                return f"2d:{self.const_arg(t.args[0])}"
            if t.name in ("Runtime2DIndex", "Runtime2D"):
                return "runtime_2d"
            if t.name == "WarpIndex":
                return "warp"
            if t.name == "LinearTiles" and len(t.args) == 1:
                count = self.const_arg(t.args[0])
                if count <= 0:
                    raise err(t.loc, "`LinearTiles<N>` needs N >= 1")
                self.check_tile_dims(t, [count])
                return f"tiles:{count}"
            if t.name in ("RowMajorTiles", "RuntimeRowMajorTiles") and len(t.args) == (3 if t.name == "RowMajorTiles" else 2):
                dims = [self.const_arg(a) for a in t.args]
                if min(dims) <= 0 or (len(dims) == 3 and dims[1] > dims[2]):
                    raise err(t.loc, f"`{t.name}` needs tile rows and columns of at least 1"
                                     + (" and no more columns than the row stride" if len(dims) == 3 else ""))
                self.check_tile_dims(t, dims)
                return f"{'rmtiles' if len(dims) == 3 else 'rttiles'}:{':'.join(map(str, dims))}"
        raise err(getattr(t, "loc", None), f"unknown index space `{getattr(t, 'name', t)}` (Index1D, Index2D<S>, Runtime2DIndex, WarpIndex, "
                                              "LinearTiles<N>, RowMajorTiles<R, C, S>, RuntimeRowMajorTiles<R, C>)")

    def check_tile_dims(self, t: ast.PathTy, dims: list[int]) -> None:
        """A tiled index space's sizes stay within MAX_LENGTH: the view code multiplies them by 32-bit thread
        coordinates in 64 bits, which must not wrap."""
        for arg, dim in zip(t.args, dims):
            if dim > MAX_LENGTH:
                raise err(getattr(arg, "loc", None) or t.loc, f"`{t.name}` size {dim} is out of range: a tile size "
                                                              f"or row stride is from 1 to {MAX_LENGTH}")

    def const_arg(self, e: Any) -> int:
        """A compile-time integer: a literal, a const generic, a `const` item, or arithmetic on them."""
        if isinstance(e, ast.PathTy):
            e = ast.PathExpr(e.loc, [e.name])
        if isinstance(e, ast.Lit) and e.kind == "int":
            return int(e.value)
        if isinstance(e, ast.PathExpr) and len(e.segments) > 1:
            from oxide.frontends.simt.device_api import strip_modules

            e = ast.PathExpr(e.loc, strip_modules(self, e.segments))  # `super::N16`
        if isinstance(e, ast.PathExpr) and len(e.segments) == 2:
            const = self.assoc_const(e.segments[0], e.segments[1])
            if const is not None:
                return self.const_arg(const.value)
        if isinstance(e, ast.PathExpr) and len(e.segments) == 1:
            bound = self.generics[-1].get(e.segments[0])
            if isinstance(bound, int):
                return bound
            const = self.crate.const(e.segments[0])
            if const is not None:
                return self.const_arg(const.value)
        if isinstance(e, ast.Binary) and e.op in ("+", "-", "*", "/", "%", "<<", ">>"):
            return _fold_const(e, self.const_arg(e.lhs), self.const_arg(e.rhs))
        if isinstance(e, ast.Block) and e.tail is not None and not e.stmts:
            return self.const_arg(e.tail)
        if isinstance(e, ast.Cast):
            return self.const_arg(e.operand)
        raise err(getattr(e, "loc", None), "expected a compile-time integer (a literal, a const generic or a `const`)")

    def length_arg(self, e: Any) -> int:
        """An array or shared-array length: a compile-time integer from 0 to MAX_LENGTH."""
        length = self.const_arg(e)
        if not 0 <= length <= MAX_LENGTH:
            raise err(getattr(e, "loc", None), f"array length {length} is out of range: a length is from 0 to "
                                               f"{MAX_LENGTH} (the 32-bit indices of device code)")
        return length

    def align_arg(self, e: Any, what: str) -> int:
        """A shared-memory alignment: a compile-time power of two from 1 to MAX_SHARED_ALIGN bytes."""
        align = self.const_arg(e)
        if align <= 0 or align & (align - 1) or align > MAX_SHARED_ALIGN:
            raise err(getattr(e, "loc", None), f"{what} alignment {align} must be a power of two from 1 to "
                                               f"{MAX_SHARED_ALIGN} bytes")
        return align

    def assoc_const(self, qualifier: str, name: str) -> ast.ConstDef | None:
        """`Q::NAME` where Q is a type (or a generic parameter bound to one) with an associated const NAME."""
        bound = self.generics[-1].get(qualifier)
        type_name = qualifier
        if isinstance(bound, T.Ty):
            type_name = getattr(bound, "name", bound.rust()).split("<")[0]
        return self.crate.assoc_const(type_name, name)

    @contextlib.contextmanager
    def _resolving(self, kind: str, name: str, loc: Any) -> Iterator[None]:
        """Resolve the fields of struct or enum `name`; meeting it again inside them means it refers to itself,
        which is a located error (not an endless recursion)."""
        resolving = self.__dict__.setdefault("_types_resolving", [])
        if name in resolving:
            path = " -> ".join(resolving[resolving.index(name):] + [name])
            raise err(loc, f"{kind} `{name}` refers to itself (through `{path}`): a type that holds itself has "
                           "infinite size, and device types cannot refer to themselves through pointers either; "
                           "use indices into a buffer instead")
        resolving.append(name)
        try:
            yield
        finally:
            resolving.pop()

    def struct_type(self, struct: ast.StructDef, args: list[T.Ty]) -> T.Struct:
        bindings = dict(zip((g.name for g in struct.generics), args))
        self.generics.append({**self.generics[-1], **bindings})
        try:
            with self._resolving("struct", struct.name, struct.loc):
                fields = tuple((name, self.resolve_type(t)) for name, t in struct.fields)
        finally:
            self.generics.pop()
        for (name, ty), (_, written) in zip(fields, struct.fields):
            safety.check_stored(ty, getattr(written, "loc", struct.loc), f"a struct field (`{struct.name}.{name}`)")
        suffix = "<" + ", ".join(a.rust() for a in args) + ">" if args else ""
        return T.Struct(struct.name + suffix, fields, struct.align)

    def enum_type(self, enum: ast.EnumDef) -> T.Enum | T.DataEnum:
        variants, next_value = [], 0
        for name, value in enum.variants:
            next_value = value if value is not None else next_value
            variants.append((name, next_value))
            next_value += 1
        if not enum.fields:
            ty = T.Enum(enum.name, tuple(variants), enum.repr)
            try:
                ty.storage
            except ValueError:
                values = [value for _, value in variants]
                raise err(enum.loc, f"enum `{enum.name}`: its discriminants ({min(values)} to {max(values)}) fit no "
                                    "integer type of 64 bits or less")
            _check_discriminants(enum, variants, ty.storage, f"its `#[repr({ty.storage})]`")
            return ty
        _check_discriminants(enum, variants, T.PRIMITIVES["i32"], "the i32 tag of an enum with fields")
        with self._resolving("enum", enum.name, enum.loc):
            payloads = tuple((f"#{name}", T.Tuple(tuple(self.resolve_type(t) for t in enum.fields.get(name, []))))
                             for name, _ in variants)
        return T.DataEnum(enum.name, (("#tag", T.PRIMITIVES["i32"]),) + payloads, discriminants=tuple(variants))

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

    def entry_block(self) -> ir.Block:
        return self.entry

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
        flexible = declared is None and _unsuffixed_literal(stmt.init)
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
        from oxide.frontends.simt.emit_expr import match_pattern

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
            if pattern.mutable and (not isinstance(value.ty, _HANDLES) or isinstance(value.ty, T.Ptr)):
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
            from oxide.frontends.simt.emit_expr import expand_rest

            if not pattern.elems and isinstance(value.ty, T.Unit):
                return  # `()` matches the unit value
            elems = expand_rest(pattern.elems, len(value.ty.elems)) if isinstance(value.ty, T.Tuple) else pattern.elems
            if not isinstance(value.ty, T.Tuple) or len(value.ty.elems) != len(elems):
                raise err(pattern.loc, f"a tuple pattern of {len(pattern.elems)} cannot match a value of type {value.ty}")
            for sub, part in zip(elems, value.v):
                self.bind_pattern(sub, part)
        elif isinstance(pattern, ast.RefPat):
            from oxide.frontends.simt.emit_expr import referent

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
        method: Callable[[Any, T.Ty | None], Val] | None = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            raise err(e.loc, f"{type(e).__name__} expressions are not supported in device code")
        with location(e.loc):
            value = method(e, expected)
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
            from oxide.frontends.simt.places import shared_pointer

            return shared_pointer(value, ty.mutable)  # `&raw mut TILE` passed as a `*mut SharedArray<T, N>`
        if isinstance(value.ty, T.Ptr) and isinstance(ty, T.Ptr) and value.ty.elem == ty.elem \
                and (value.ty.mutable or not ty.mutable):
            # A pointer keeps the address space it points into; `*mut T` also passes as `*const T`.
            return Val(T.Ptr(ty.elem, ty.mutable, value.ty.space), value.v)
        literal = getattr(value, "literal", None)
        if literal is not None and isinstance(ty, T.Int if literal.kind == "int" else T.Float):
            return self.e_Lit(literal, ty)  # an unsuffixed literal typed by where it goes (`(raw, (2, 3))`)
        if isinstance(value.ty, T.Tuple) and isinstance(ty, T.Tuple) and len(value.ty.elems) == len(ty.elems):
            return Val(ty, [self.coerce(part, want, loc) for part, want in zip(value.v, ty.elems)])
        if isinstance(ty, T.Slice):
            from oxide.frontends.simt.local_slices import borrow_array

            window = borrow_array(value, ty)
            if window is not None:
                return window  # `&arr` / `&mut arr` of a local array where `&[T]` is expected
            if isinstance(value.ty, (T.LocalSlice, T.PtrSlice)) and value.ty.elem == ty.elem \
                    and (value.ty.mutable or not ty.mutable):
                return value  # a slice of registers or of shared/generic memory passed to a `&[T]` parameter
        if isinstance(value.ty, T.FnItem) and isinstance(ty, T.FnPtr):
            return value  # the function item itself: calls through it are inlined
        if isinstance(value.ty, (T.PlaceRef, T.ElemRef, T.Shared)):
            from oxide.frontends.simt.emit_places import unsize, unsize_snapshot

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

    from oxide.frontends.simt.emit_expr import (  # noqa: E402  (methods kept in their own module)
        check_array_bounds, check_division, e_ArrayLit, e_Assign, e_Binary, e_Block, e_Call, e_Cast,
        e_Field, e_If, e_Index, e_Lit, e_MacroCall, e_Match, e_MethodCall, e_PathExpr,
        e_Range, e_StructLit, e_Tuple, e_Unary, trap_unless, e_Closure, call_closure,
    )
    from oxide.frontends.simt.loops import (  # noqa: E402  (methods kept in their own module)
        _for_body, _guarded_rest, e_Break, e_Continue, e_For, e_Loop, e_Return, e_While, no_jump_pending,
    )



def _check_discriminants(enum: ast.EnumDef, variants: list[tuple[str, int]], ty: T.Int, what: str) -> None:
    """Every discriminant fits the integer the enum is stored as (a wrapped one would equal another's)."""
    low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
    for name, value in variants:
        if not low <= value <= high:
            raise err(enum.loc, f"enum `{enum.name}`: the discriminant of `{name}` is {value}, which does not fit "
                                f"{what} ({low} to {high})")


MAX_LENGTH = (1 << 31) - 1
# The simt dialect's limit on a shared array's alignment (its verifier's).
MAX_SHARED_ALIGN = 256
# Compile-time integers are at most 128 bits wide in Rust (u128, i128); a fold past that is an overflow.
_CONST_LIMIT = 1 << 128
_CONST_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "<<": operator.lshift, ">>": operator.rshift}


def _fold_const(e: ast.Binary, a: int, b: int) -> int:
    """Rust's `a op b` on compile-time integers: division truncates toward zero; a division by zero, a shift
    past 127 or a result past 128 bits is a located error, never a wrapped or huge Python value."""
    if e.op in ("/", "%") and b == 0:
        raise err(e.loc, f"this `{e.op}` divides by zero in a compile-time integer")
    if e.op in ("<<", ">>") and not 0 <= b < 128:
        raise err(e.loc, f"this `{e.op}` shifts by {b}: a shift amount is from 0 to 127")
    if e.op in ("/", "%"):
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        value = quotient if e.op == "/" else a - b * quotient
    else:
        value = _CONST_OPS[e.op](a, b)
    if not -_CONST_LIMIT <= value < _CONST_LIMIT:
        raise err(e.loc, f"this `{e.op}` overflows: compile-time integers are at most 128 bits")
    return value

def _unsuffixed_literal(e: Any) -> bool:
    """An unsuffixed number, or an `if`/`match`/block whose every result is one (`match f { A => 2, _ => 0 }`):
    its type comes from later uses."""
    if isinstance(e, ast.Unary) and e.op == "-":
        return _unsuffixed_literal(e.operand)
    if isinstance(e, ast.Block):
        return e.tail is not None and _unsuffixed_literal(e.tail)
    if isinstance(e, ast.If):
        return e.else_ is not None and _unsuffixed_literal(e.then) and _unsuffixed_literal(e.else_)
    if isinstance(e, ast.Match):
        return bool(e.arms) and all(_unsuffixed_literal(arm.body) for arm in e.arms)
    return isinstance(e, ast.Lit) and e.kind in ("int", "float") and not e.suffix


_HANDLES = (T.Slice, T.Disjoint, T.Shared, T.Ptr, T.ElemRef, T.ThreadIndex, T.Closure, T.Atomic, T.LocalRef, T.CellPtr,
            T.PlaceRef, T.FnItem, T.LocalSlice, T.PtrSlice, T.ThreadRun, T.GridRuns, T.Tile2D)


def _in_memory(ty: T.Ty) -> bool:
    """Whether values of `ty` can live in memory: scalars and aggregates of them (not enums with fields,
    whose register form is no memory layout)."""
    if isinstance(ty, T.DataEnum):
        return False
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum)):
        return True
    if isinstance(ty, T.Array):
        return _in_memory(ty.elem)
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return bool(parts) and all(_in_memory(p) for p in parts)
    return False


def _holds_array(ty: T.Ty) -> bool:
    if isinstance(ty, T.Array):
        return True
    if isinstance(ty, T.Tuple):
        return any(_holds_array(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return any(_holds_array(f) for _, f in ty.fields)
    return False
