"""Loops and jumps of the SIMT emitter (handlers in the expression table): `while`, `loop`, `for` over ranges and
over slice or array elements, and `break`, `continue`, `return`.

Loops become scf.for when nothing jumps out of them, else scf.while. A jump sets a flag (a rank-0 memref of
i1, which LLVM promotes to a register): the loop's condition stops on a pending break or return, the flags
guard the rest of the enclosing blocks (FunctionEmitter._guarded_rest), and `continue` is cleared at each iteration.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, memref, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls import matrix_views
from oxide.frontends.simt.expressions.indexing import array_load
from oxide.frontends.simt.expressions.inference import is_plain_literal, unify
from oxide.frontends.simt.expressions.operators import operands
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.local_slices import element_unchecked
from oxide.frontends.simt.places import Place, as_reference, load_place
from oxide.frontends.simt.values import Val, flag_cell, new_cell, set_flag, store_cell
from oxide.frontends.structured import Frame, annotate_unroll, contains, walk, while_loop
from oxide.frontends.syntax import ast


def _loop_frame(self, label: str | None, body: Any) -> Frame:
    frame = Frame("loop", label)
    jumps = contains(body, ast.Break, ast.Continue)
    with ir.InsertionPoint.at_block_begin(self.entry):
        if jumps:
            frame.exit_flag = flag_cell()
            frame.continue_flag = flag_cell()
    if jumps:
        set_flag(frame.exit_flag, False)
        set_flag(frame.continue_flag, False)
    return frame


def _run_loop(self, frame: Frame, cond_fn: Any, body_fn: Any, unroll: int | None) -> None:
    """scf.while: the condition also stops on a pending break/return; continue resets each iteration."""
    def before(args: list[ir.Value]) -> tuple[ir.Value, list[ir.Value]]:
        # This loop's own `continue` goes on to the next iteration: it does not stop the loop.
        go = self.no_jump_pending(ignore_continue_of=frame)
        return (arith.andi(go, cond_fn()) if cond_fn is not None else go), []

    def after(args: list[ir.Value]) -> list[ir.Value]:
        if frame.continue_flag is not None:
            set_flag(frame.continue_flag, False)
        body_fn()
        return []

    while_loop([], [], before, after, unroll)
    if frame.exit_flag is not None:
        set_flag(frame.exit_flag, False)
        set_flag(frame.continue_flag, False)


@emits(ast.While)
def e_While(self, e: ast.While, expected: T.Ty | None) -> Val:
    if isinstance(e.cond, ast.LetCond):
        # `while let P = v { body }` is `loop { if let P = v { body } else { break } }`: `v` is evaluated
        # anew each iteration and `continue` re-tests it.
        stop = ast.Block(e.loc, [], ast.Break(e.loc, e.label))
        return self.expr(ast.Loop(e.loc, ast.Block(e.loc, [], ast.If(e.loc, e.cond, e.body, stop)), e.label),
                         expected)
    frame = _loop_frame(self, e.label, e.body)
    self.frames.append(frame)
    try:
        _run_loop(self, frame, lambda: self.coerce(self.expr(e.cond, T.BOOL), T.BOOL, e.cond.loc).v,
                  lambda: self.block(e.body), e.unroll)
    finally:
        self.frames.pop()
    return Val(T.UNIT, None)


@emits(ast.Loop)
def e_Loop(self, e: ast.Loop, expected: T.Ty | None) -> Val:
    if any(isinstance(n, ast.Break) and n.value is not None for n in walk(e.body)):
        raise err(next(n for n in walk(e.body) if isinstance(n, ast.Break) and n.value is not None).loc,
                  "`break` with a value is not supported in device code; assign to a `let mut` before breaking")
    frame = _loop_frame(self, e.label, e.body)
    self.frames.append(frame)
    try:
        _run_loop(self, frame, None, lambda: self.block(e.body), e.unroll)
    finally:
        self.frames.pop()
    if frame.exit_flag is None and not contains(e.body, ast.Return):
        return Val(T.NEVER, None)  # `loop {}` with no way out spins forever, as in Rust (its type is `!`)
    return Val(T.UNIT, None)


def _range_parts(self, it: ast.Expr) -> tuple[ast.Range, ast.Expr | None]:
    if isinstance(it, ast.MethodCall) and it.name == "step_by" and len(it.args) == 1:
        inner, step = _range_parts(self, it.receiver)
        return inner, it.args[0]
    if isinstance(it, ast.Range) and it.start is not None and it.end is not None:
        return it, None
    if isinstance(it, ast.MethodCall) and it.name in ("iter", "iter_mut", "into_iter", "enumerate", "zip", "rev"):
        raise err(it.loc, f"an iterator adapter (`.{it.name}()`) is not supported in device code; loop over an index range")
    raise err(it.loc, "`for` loops run over integer ranges (`a..b`, `a..=b`, optionally `.step_by(n)`)")


def _element_loop(self, e: ast.For) -> Val | None:
    """`for v in xs` / `xs.iter()` / `&xs` / `xs.iter().enumerate()` over a slice or array: an index loop."""
    it, enumerate_ = e.iter, False
    if isinstance(it, ast.MethodCall) and it.name == "enumerate" and not it.args:
        it, enumerate_ = it.receiver, True
    by_ref = False
    if isinstance(it, ast.MethodCall) and it.name in ("iter", "into_iter", "iter_mut") and not it.args:
        by_ref = it.name == "iter_mut"
        it = it.receiver
    elif isinstance(it, ast.Unary) and it.op == "&":
        it = it.operand
    elif isinstance(it, (ast.Range, ast.MethodCall)):
        return None
    seq = self.expr(it)
    if not isinstance(seq.ty, (T.Slice, T.Array, T.LocalSlice)) and not matrix_views.is_view(seq.ty):
        return None
    if matrix_views.is_view(seq.ty):
        if by_ref or enumerate_:
            raise err(e.iter.loc, f"only `for x in view` / `view.iter()` is supported over a `{seq.ty}`")
        length = matrix_views.loop_length(seq)
    elif isinstance(seq.ty, T.LocalSlice):
        length = seq.v.length
    else:
        length = simt.LenOp.build(seq.v) if isinstance(seq.ty, T.Slice) else index(seq.ty.length)
    if isinstance(seq.ty, T.Array):
        seq = self.owned(seq)  # the loop iterates over the array's value at the start
    frame = _loop_frame(self, e.label, e.body)
    if frame.exit_flag is not None or contains(e.body, ast.Return):
        raise err(e.loc, "`break`, `continue` or `return` inside a `for` over elements is not supported in device "
                         "code yet; loop over an index range")
    self.frames.append(frame)
    try:
        loop = scf.ForOp(index(0), length, index(1))
        annotate_unroll(loop, e.unroll)
        with ir.InsertionPoint(loop.body):
            i = loop.induction_variable
            if matrix_views.is_view(seq.ty):
                element = matrix_views.loop_element(seq, i)
            elif isinstance(seq.ty, T.LocalSlice):
                if by_ref:
                    raise err(e.iter.loc, "`iter_mut` over a slice of a local array is not supported in device "
                                          "code; loop over an index range")
                element = element_unchecked(seq, i)
            elif isinstance(seq.ty, T.Slice) and (by_ref or T.is_aggregate(seq.ty.elem)):
                if by_ref and not seq.ty.mutable:
                    raise err(e.iter.loc, "`iter_mut` needs a `&mut [T]`")
                ptr = simt.ElemPtrOp.build(seq.v, i, results=[T.Ptr(seq.ty.elem, True, 1).mlir()])
                place = Place(ptr, seq.ty.elem, seq.ty.mutable, 1)
                element = as_reference(place) if by_ref else load_place(self, place)
            elif isinstance(seq.ty, T.Slice):
                op = simt.LoadUncheckedOp  # i < len by construction
                element = Val(seq.ty.elem, op.build(seq.v, arith.index_cast(ir.IndexType.get(), i)
                                                   if str(i.type) != "index" else i))
            else:
                element = array_load(seq.v, i, seq.ty.elem)
            if enumerate_:
                element = Val(T.Tuple((T.USIZE, element.ty)),
                              [Val(T.USIZE, arith.index_cast(ir.IntegerType.get_signless(64), i)), element])
            self.push()
            try:
                self.bind_pattern(e.pattern, element)
                self.block(e.body)
            finally:
                self.pop()
            scf.YieldOp([])
    finally:
        self.frames.pop()
    return Val(T.UNIT, None)


@emits(ast.For)
def e_For(self, e: ast.For, expected: T.Ty | None) -> Val:
    looped = _element_loop(self, e)
    if looped is not None:
        return looped
    rng, step_expr = _range_parts(self, e.iter)
    literal_range = is_plain_literal(rng.start) and is_plain_literal(rng.end)
    start, end = operands(self, rng.start, rng.end, self.retypes.get(id(e)))
    ty = unify(self, start, end, rng.loc, "a range")
    if not isinstance(ty, T.Int):
        raise err(rng.loc, f"a range over `{ty}` cannot be iterated")
    step = self.coerce(self.expr(step_expr, T.USIZE), T.USIZE, step_expr.loc) if step_expr is not None else None
    to_index = arith.index_cast if ty.signed else arith.index_castui
    lb, ub = to_index(ir.IndexType.get(), start.v), to_index(ir.IndexType.get(), end.v)
    if rng.inclusive:
        ub = arith.addi(ub, index(1))
    st = arith.index_castui(ir.IndexType.get(), step.v) if step is not None else index(1)
    if step is not None:
        self.trap_unless(arith.cmpi(arith.CmpIPredicate.ne, st, index(0)))  # step_by(0) panics in Rust
    frame = _loop_frame(self, e.label, e.body)
    has_return = contains(e.body, ast.Return)
    self.frames.append(frame)
    try:
        if frame.exit_flag is None and not has_return:
            loop = scf.ForOp(lb, ub, st)
            annotate_unroll(loop, e.unroll)
            with ir.InsertionPoint(loop.body):
                _for_body(self, e, ty, loop.induction_variable, literal_range)
                scf.YieldOp([])
        else:
            with ir.InsertionPoint.at_block_begin(self.entry):
                counter = new_cell(T.USIZE).leaves
            memref.store(arith.index_cast(ir.IntegerType.get_signless(64), lb), counter, [])

            def cond() -> ir.Value:
                i = arith.index_cast(ir.IndexType.get(), memref.load(counter, []))
                return arith.cmpi(arith.CmpIPredicate.slt, i, ub)

            def body() -> None:
                i = arith.index_cast(ir.IndexType.get(), memref.load(counter, []))
                _for_body(self, e, ty, i, literal_range)
                memref.store(arith.index_cast(ir.IntegerType.get_signless(64), arith.addi(i, st)), counter, [])

            _run_loop(self, frame, cond, body, e.unroll)
    finally:
        self.frames.pop()
    return Val(T.UNIT, None)


def _for_body(self, e: ast.For, ty: T.Int, iv: ir.Value, literal_range: bool) -> None:
    self.push()
    try:
        value = Val(ty, arith.index_cast(ty.mlir(), iv))
        if literal_range and id(e) not in self.retypes:
            value.flex = id(e)  # `for i in 0..4 { a[i] }`: Rust infers usize from the use
        self.bind_pattern(e.pattern, value)
        self.block(e.body)
    finally:
        self.pop()


def _target(self, label: str | None, kind: str, loc: Any) -> Frame:
    for frame in reversed(self.frames):
        if frame.kind == "function":
            break
        if frame.kind == "loop" and (label is None or frame.label == label):
            return frame
    if label is not None:
        raise err(loc, f"use of undeclared label `'{label}`")
    raise err(loc, f"`{kind}` outside of a loop")


@emits(ast.Break)
def e_Break(self, e: ast.Break, expected: T.Ty | None) -> Val:
    frame = _target(self, e.label, "break", e.loc)
    set_flag(frame.exit_flag, True)
    return Val(T.NEVER, None)


@emits(ast.Continue)
def e_Continue(self, e: ast.Continue, expected: T.Ty | None) -> Val:
    frame = _target(self, e.label, "continue", e.loc)
    set_flag(frame.continue_flag, True)
    return Val(T.NEVER, None)


@emits(ast.Return)
def e_Return(self, e: ast.Return, expected: T.Ty | None) -> Val:
    frame = next((f for f in reversed(self.frames) if f.kind == "function"), None)
    if frame is None:
        raise err(e.loc, "internal error: `return` outside a function frame")
    if e.value is not None:
        value = self.expr(e.value, frame.result.ty if frame.result is not None else None)
        if frame.result is None:
            if not isinstance(value.ty, T.Unit):
                raise err(e.loc, f"mismatched types: this function returns `()`, not `{value.ty}`")
        else:
            store_cell(frame.result, self.coerce(value, frame.result.ty, e.value.loc))
    set_flag(frame.exit_flag, True)
    return Val(T.NEVER, None)
