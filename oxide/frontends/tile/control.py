"""Structured control flow of the tile frontend: `if`/`else`, `for`, `while`, `loop`, `break` and
`continue`, as `scf.if`, `scf.for` and `scf.while` over SSA variables.

Variables are SSA values; a `let mut` variable assigned inside an `if` or a loop is threaded through the
`scf.if` results or the loop's iter_args. `break`/`continue` become i1 flags: a loop with a `break` is an
`scf.while` whose condition tests the flag, and the statements after one that may jump run under
`if !flag`. An `if` whose condition is a compile-time constant (a const-generic branch) emits only the branch
taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mlir import ir
from mlir.dialects import scf

from oxide.frontends.structured import Frame, assigned_names, jumps, live_flags, while_loop
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import mapped
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.types import BOOL, UNIT, UNIT_V, Flex, Scalar, TileT, TupleT, V, rust_name
from oxide.frontends.tile.values import coerce, concrete, scalar_const


@dataclass
class Binding:
    """A named variable; `let_id` is its `let` when its value came from an unsuffixed literal."""

    name: str
    v: V
    mutable: bool
    let_id: int | None = None


# A loop that `break`/`continue` leave: its label and its jump flags, SSA variables threaded through the
# loop like the variables it assigns (None if the body never jumps so).
LoopFrame = Frame[Binding, None]


class ControlFlow:
    """The control-flow half of the Emitter (emit.py), which provides expr, block, binary, lookup,
    bind_pattern, scopes, loops and fn."""

    def x_If(self, e: ast.If, expected: Any) -> V:
        if isinstance(e.cond, (ast.LetCond, ast.LetChain)):
            raise err(e.cond.loc, "`if let` is not supported in tile kernels")
        cond = self.condition(e.cond)
        if cond.const is not None:
            # A compile-time condition (`if CAUSAL == 1i32`): only the branch taken exists.
            if cond.const:
                return self.block(e.then, expected)
            return self.expr(e.else_, expected) if e.else_ is not None else UNIT_V
        else_fn = (lambda hint: self.expr(e.else_, expected or hint)) if e.else_ is not None else (lambda _: UNIT_V)
        return self.structured_if(cond, lambda: self.block(e.then, expected), else_fn,
                                  [e.then, e.else_], e.loc)

    def condition(self, e: Any) -> V:
        """An `if`/`while` condition: a `bool`."""
        v = self.expr(e, BOOL)
        if v.ty != BOOL:
            raise err(e.loc, f"a condition must be `bool`, found `{rust_name(v.ty)}`")
        return v

    def structured_if(self, cond: V, then_fn: Callable[[], V], else_fn: Callable[[Any], V], nodes: list[Any],
                      loc: Any) -> V:
        """An `scf.if` whose results are the branch value and every outer variable a branch assigns;
        `else_fn` gets the then-branch's type as a hint (it types the literals of the `else` branch)."""
        carried = self.carried(nodes)
        _fix_carried(carried, loc)
        saved = [b.v for b in carried]
        draft = scf.IfOp(cond.value, [], has_else=True)
        with ir.InsertionPoint(draft.then_block):
            then_v = then_fn()
        then_c = [b.v for b in carried]
        for b, v in zip(carried, saved):
            b.v = v
        with ir.InsertionPoint(draft.else_block):
            else_v = else_fn(then_v.ty if isinstance(then_v.ty, (Scalar, TileT)) else None)
        else_c = [b.v for b in carried]
        for b, v in zip(carried, saved):
            b.v = v
        unit = then_v.ty == UNIT or else_v.ty == UNIT
        if unit and then_v.ty != else_v.ty and else_v.ty != UNIT:
            raise err(loc, f"`if` and `else` have different types: `()` and `{rust_name(else_v.ty)}`")
        then_leaves: list[V] = []
        else_leaves: list[V] = []
        value_ty: Any = UNIT
        if not unit:
            then_v, else_v = _agree(then_v, else_v, draft, loc)
            value_ty = then_v.ty
            then_leaves, else_leaves = _leaves(then_v, loc), _leaves(else_v, loc)
        with ir.InsertionPoint(draft.then_block):
            then_leaves += [coerce(v, b.v.ty, loc, f"`{b.name}`") for v, b in zip(then_c, carried)]
        with ir.InsertionPoint(draft.else_block):
            else_leaves += [coerce(v, b.v.ty, loc, f"`{b.name}`") for v, b in zip(else_c, carried)]
        if not then_leaves:
            for block in (draft.then_block, draft.else_block):
                with ir.InsertionPoint(block):
                    scf.yield_([])
            return UNIT_V
        final = scf.IfOp(cond.value, [v.value.type for v in then_leaves], has_else=True)
        for src, dst, leaves in ((draft.then_block, final.then_block, then_leaves),
                                 (draft.else_block, final.else_block, else_leaves)):
            for op in list(src.operations):
                dst.append(op)
            with ir.InsertionPoint(dst):
                scf.yield_([v.value for v in leaves])
        draft.operation.erase()
        results = list(final.results)
        value = UNIT_V
        if value_ty != UNIT:
            value, results = _rebuild(value_ty, results)
        for b, r in zip(carried, results):
            _rebind(b, r)
        return value

    def carried(self, nodes: list[Any]) -> list[Binding]:
        """The variables and jump flags visible here that `nodes` may assign."""
        out: list[Binding] = []
        seen: set[int] = set()
        for name in assigned_names(nodes):
            binding = self.lookup(name)
            if binding is not None and id(binding) not in seen:
                seen.add(id(binding))
                out.append(binding)
        for kind, label, loc in jumps(nodes):
            frame = self._frame(label, loc)
            flag = frame.exit_flag if kind == "break" else frame.continue_flag
            if flag is not None and id(flag) not in seen:
                seen.add(id(flag))
                out.append(flag)
        return out

    def _frame(self, label: str | None, loc: Any) -> LoopFrame:
        if not self.loops:
            raise err(loc, "`break`/`continue` outside of a loop")
        frame = self.loops[-1]
        if label is not None and frame.label != label:
            raise err(loc, f"`break '{label}`/`continue '{label}` to an outer loop is not supported in tile kernels; "
                           "set a flag and break the inner loop")
        return frame

    def may_jump(self, stmt: Any) -> bool:
        """Whether a statement of a loop body may `break` or `continue` that loop."""
        return bool(self.loops) and bool(jumps([stmt]))

    def guarded_rest(self, stmt: Any, rest: list[Any], tail: Any) -> None:
        """Emit what follows a statement that may `break`/`continue` under `if` it did not."""
        if tail is not None and not _is_unit_tail(tail):
            raise err(tail.loc, "a block that may `break` or `continue` cannot end in a value here")
        self.structured_if(self._not_jumped(self.loops[-1]), lambda: self.statements(rest, tail), lambda _: UNIT_V,
                           [ast.Block(stmt.loc, rest, tail)], stmt.loc)

    def _not_jumped(self, frame: LoopFrame) -> V:
        flags = [f.v for f in live_flags([frame])]
        jumped = flags[0]
        for f in flags[1:]:
            jumped = self.binary("||", jumped, f, self.fn.loc)
        return self.binary("^", jumped, scalar_const(True, BOOL), self.fn.loc)

    def x_Break(self, e: ast.Break, expected: Any) -> V:
        if e.value is not None:
            raise err(e.loc, "`break` with a value is not supported in tile kernels")
        frame = self._frame(e.label, e.loc)
        frame.exit_flag.v = scalar_const(True, BOOL)
        return UNIT_V

    def x_Continue(self, e: ast.Continue, expected: Any) -> V:
        frame = self._frame(e.label, e.loc)
        frame.continue_flag.v = scalar_const(True, BOOL)
        return UNIT_V

    def loop_frame(self, label: str | None, body: ast.Block) -> LoopFrame:
        kinds = {kind for kind, _, _ in jumps([body])}
        frame = LoopFrame("loop", label)
        if "break" in kinds:
            frame.exit_flag = Binding("break", scalar_const(False, BOOL), True)
        if "continue" in kinds:
            frame.continue_flag = Binding("continue", scalar_const(False, BOOL), True)
        return frame

    def x_For(self, e: ast.For, expected: Any) -> V:
        if mapped.is_iter_indices(e.iter):
            return mapped.mapped_for(self, e)
        start, end, step = self._range(e.iter)
        frame = self.loop_frame(e.label, e.body)
        if frame.exit_flag is not None:
            return self._for_as_while(e, frame, start, end, step)

        def body(counter: ir.Value) -> None:
            self.bind_pattern(e.pattern, V(start.ty, counter))
            self.block(e.body)

        self.counted_loop(frame, start, end, step, [e.body], body, e.loc)
        return UNIT_V

    def counted_loop(self, frame: LoopFrame, start: V, end: V, step: V, nodes: list[Any],
                     body_fn: Callable[[ir.Value], None], loc: Any) -> None:
        """`scf.for` from `start` to `end` by `step` (a loop without `break`), carrying every outer variable
        `nodes` assign; `body_fn` emits the body given the counter."""
        self.loops.append(frame)
        try:
            carried = [b for b in self.carried(nodes) if b is not frame.continue_flag]
        finally:
            self.loops.pop()
        _fix_carried(carried, loc)
        types = [b.v.ty for b in carried]
        loop = scf.ForOp(start.value, end.value, step.value, [b.v.value for b in carried])
        with ir.InsertionPoint(loop.body):
            scf.yield_(self._loop_body(frame, carried, types, list(loop.inner_iter_args),
                                       lambda: body_fn(loop.induction_variable), loc))
        for b, r in zip(carried, loop.results):
            _rebind(b, r)

    def _range(self, it: Any) -> tuple[V, V, V]:
        step_e = None
        if isinstance(it, ast.MethodCall) and it.name == "step_by" and len(it.args) == 1:
            it, step_e = it.receiver, it.args[0]
        if not isinstance(it, ast.Range) or it.start is None or it.end is None:
            raise err(it.loc, "tile kernels loop over ranges: `for i in a..b` or `for i in (a..b).step_by(k)`")
        start = self.expr(it.start)
        end = self.expr(it.end, start.ty if isinstance(start.ty, Scalar) else None)
        start, end = vals.unify_scalars(start, end, it.loc, "..")
        start, end = concrete(start), concrete(end)
        if not isinstance(start.ty, Scalar) or not start.ty.is_int:
            raise err(it.loc, f"a range of `{rust_name(start.ty)}`; loops count with integers")
        if it.inclusive:
            end = self.binary("+", end, scalar_const(1, end.ty), it.loc)
        step = self._step(step_e, start.ty) if step_e is not None else scalar_const(1, start.ty)
        if step.const is not None and step.const <= 0:
            raise err(step_e.loc, "`step_by` takes a positive step")
        return start, end, step

    def _step(self, step_e: Any, counter: Scalar) -> V:
        """The step of `step_by(k)` at the counter's type: Rust's `step_by` takes a `usize`, so an integer step
        of another type (`step as usize` on an i32 range) is converted, as the loop counts in its own type."""
        step = self.expr(step_e, counter)
        if isinstance(step.ty, Scalar) and step.ty.is_int and step.ty != counter:
            return vals.convert(step, counter, step_e.loc)
        return coerce(step, counter, step_e.loc)

    def _for_as_while(self, e: ast.For, frame: LoopFrame, start: V, end: V, step: V) -> V:
        counter = Binding("loop counter", start, True)

        def cond() -> V:
            return self.binary("<", counter.v, end, e.loc)

        def body() -> None:
            self.bind_pattern(e.pattern, counter.v)
            self.block(e.body)
            counter.v = self.binary("+", counter.v, step, e.loc)

        return self._while(frame, [counter], cond, body, [e.body], e.loc)

    def x_While(self, e: ast.While, expected: Any) -> V:
        if isinstance(e.cond, ast.LetCond):
            raise err(e.cond.loc, "`while let` is not supported in tile kernels")
        frame = self.loop_frame(e.label, e.body)
        return self._while(frame, [], lambda: self.condition(e.cond), lambda: self.block(e.body), [e.cond, e.body],
                           e.loc)

    def x_Loop(self, e: ast.Loop, expected: Any) -> V:
        frame = self.loop_frame(e.label, e.body)
        if frame.exit_flag is None:
            raise err(e.loc, "this `loop` has no `break`, so it never ends")
        return self._while(frame, [], lambda: scalar_const(True, BOOL), lambda: self.block(e.body), [e.body], e.loc)

    def _while(self, frame: LoopFrame, extra: list[Binding], cond_fn: Callable[[], V], body_fn: Callable[[], Any],
               nodes: list[Any], loc: Any) -> V:
        """`scf.while` carrying `extra`, the break flag and every outer variable the loop assigns."""
        self.loops.append(frame)
        try:
            carried = [b for b in self.carried(nodes) if b is not frame.continue_flag and b is not frame.exit_flag]
        finally:
            self.loops.pop()
        carried = extra + ([frame.exit_flag] if frame.exit_flag is not None else []) + carried
        _fix_carried(carried, loc)
        types = [b.v.ty for b in carried]

        def before(args: list[ir.Value]) -> tuple[ir.Value, list[ir.Value]]:
            for b, arg in zip(carried, args):
                _rebind(b, arg)
            go = cond_fn()
            if frame.exit_flag is not None:
                go = self.binary("&&", go, self.binary("^", frame.exit_flag.v, scalar_const(True, BOOL), loc), loc)
            return go.value, [b.v.value for b in carried]

        results = while_loop([b.v.value.type for b in carried], [b.v.value for b in carried], before,
                             lambda args: self._loop_body(frame, carried, types, args, body_fn, loc))
        for b, r in zip(carried, results):
            _rebind(b, r)
        return UNIT_V

    def _loop_body(self, frame: LoopFrame, carried: list[Binding], types: list[Any], args: list[Any],
                   body_fn: Callable[[], Any], loc: Any) -> list[ir.Value]:
        """A loop body at the insertion point: the carried variables bound to the block's `args`, the body in
        its own scope with the `continue` flag cleared; the carried values it yields."""
        for b, arg in zip(carried, args):
            _rebind(b, arg)
        self.scopes.append({})
        self.loops.append(frame)
        try:
            if frame.continue_flag is not None:
                frame.continue_flag.v = scalar_const(False, BOOL)
            body_fn()
            return [coerce(b.v, t, loc, f"`{b.name}` (carried by the loop)").value for b, t in zip(carried, types)]
        finally:
            self.loops.pop()
            self.scopes.pop()


def _fix_carried(carried: list[Binding], loc: Any) -> None:
    """Give the variables an `if` or loop carries their SSA types (an untyped literal takes its default);
    only scalars and tiles can change inside control flow."""
    for b in carried:
        b.v = concrete(b.v, b.let_id)
        if not isinstance(b.v.ty, (Scalar, TileT)):
            raise err(loc, f"`{b.name}` is a `{rust_name(b.v.ty)}`, which cannot change inside an `if` or a loop; "
                           f"only scalar and tile variables can")


def _rebind(b: Binding, value: ir.Value) -> None:
    """A carried variable's new SSA value (block argument or op result); its type stays."""
    b.v = V(b.v.ty, value, origin=b.let_id)


def _is_unit_tail(tail: Any) -> bool:
    return isinstance(tail, (ast.If, ast.For, ast.While, ast.Loop, ast.Break, ast.Continue, ast.Assign))


def _agree(then_v: V, else_v: V, draft: Any, loc: Any) -> tuple[V, V]:
    """The two branch values at one type (an untyped literal takes the other branch's type), each
    materialized in its own branch."""
    if isinstance(then_v.ty, TupleT) and isinstance(else_v.ty, TupleT) and len(then_v.parts) == len(else_v.parts):
        pairs = [_agree(a, b, draft, loc) for a, b in zip(then_v.parts, else_v.parts)]
        return tuple(V(TupleT(tuple(p.ty for p in side)), None, None, list(side)) for side in zip(*pairs))
    with ir.InsertionPoint(draft.then_block):
        then_v = concrete(then_v) if isinstance(else_v.ty, Flex) else then_v
    with ir.InsertionPoint(draft.else_block):
        else_v = coerce(else_v, then_v.ty, loc, "the `else` branch") if not isinstance(then_v.ty, Flex) else else_v
    if isinstance(then_v.ty, Flex):
        with ir.InsertionPoint(draft.else_block):
            else_v = concrete(else_v)
        with ir.InsertionPoint(draft.then_block):
            then_v = coerce(then_v, else_v.ty, loc, "the `if` branch")
    return then_v, else_v


def _leaves(v: V, loc: Any) -> list[V]:
    """The SSA values of a branch result (a tuple's elements in order)."""
    if isinstance(v.ty, TupleT):
        return [leaf for p in v.parts for leaf in _leaves(p, loc)]
    if isinstance(v.ty, (Scalar, TileT)) and v.value is not None:
        return [v]
    raise err(loc, f"an `if` with a compile-time-unknown condition cannot produce a `{rust_name(v.ty)}`")


def _rebuild(ty: Any, results: list[Any]) -> tuple[V, list[Any]]:
    if isinstance(ty, TupleT):
        parts = []
        for t in ty.elems:
            part, results = _rebuild(t, results)
            parts.append(part)
        return V(ty, None, None, parts), results
    return V(ty, results[0]), results[1:]
