"""Structured control flow shared by the frontends: loop and function frames with their jump flags, what a
body assigns and how it jumps, and the scf.while every loop with a way out becomes.

MLIR's scf has no break, continue or early return. A frontend lowers each to a flag (an i1, in whatever form
its values take: a memref cell in simt, an SSA variable threaded through the loop in tile) that the loop's
condition tests and that guards the rest of the enclosing blocks. The frontend decides the form of a flag;
this module holds the frames that carry the flags, the analyses of the AST that decide which flags a loop
needs, and the shape of the emitted loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar

from mlir import ir
from mlir.dialects import scf

from oxide.frontends.syntax import ast

Flag = TypeVar("Flag")      # a frontend's jump flag
Result = TypeVar("Result")  # where an inlined function's `return` puts its value


@dataclass
class Frame(Generic[Flag, Result]):
    """A loop (or an inlined function body) that jumps can leave; a flag is None when nothing sets it."""

    kind: str  # "loop" | "function"
    label: str | None
    exit_flag: Flag | None = None      # break (of a loop) / return (of a function)
    continue_flag: Flag | None = None
    result: Result | None = None       # the return value of an inlined function


def live_flags(frames: Sequence[Frame[Flag, Result]], ignore_continue_of: Frame[Flag, Result] | None = None
               ) -> list[Flag]:
    """The flags of `frames` (outermost first, each frame's exit flag before its continue flag) that a jump
    may have set; a loop's own `continue` is left out where it only ends the current iteration."""
    flags: list[Flag] = []
    for frame in frames:
        for flag in (frame.exit_flag,) if frame is ignore_continue_of else (frame.exit_flag, frame.continue_flag):
            if flag is not None:
                flags.append(flag)
    return flags


def unroll_annotation(count: int) -> ir.Attribute:
    """The LLVM loop annotation for `#[unroll]` (count 0: unroll fully) or `#[unroll(N)]`. Upstream's scf-to-cf
    lowering moves it onto the loop's back edge, where LLVM's unroller reads it."""
    unroll = "full = true" if count == 0 else f"count = {count} : i32"
    return ir.Attribute.parse(f"#llvm.loop_annotation<unroll = <{unroll}>>")


def annotate_unroll(loop: ir.OpView, count: int | None) -> None:
    """Attach `#[unroll]`'s annotation (if the loop has one) to an scf.for or scf.while."""
    if count is not None:
        loop.operation.attributes["llvm.loop_annotation"] = unroll_annotation(count)


# A loop the frontend itself emits over a local array of at most this many elements is unrolled fully: an
# array LLVM can see every index of is promoted to registers, one it cannot is kept in local memory (an
# accumulator `[0.0f32; 128]` must stay in registers).
ARRAY_UNROLL_LIMIT = 256


def unroll_array_loop(loop: ir.OpView, length: int) -> None:
    """Annotate a frontend-made loop over the `length` elements of a local array (see ARRAY_UNROLL_LIMIT)."""
    annotate_unroll(loop, 0 if length <= ARRAY_UNROLL_LIMIT else None)


def while_loop(types: list[ir.Type], inits: list[ir.Value],
               before: Callable[[list[ir.Value]], tuple[ir.Value, list[ir.Value]]],
               after: Callable[[list[ir.Value]], list[ir.Value]], unroll: int | None = None) -> list[ir.Value]:
    """An scf.while carrying values of `types` from `inits`: `before(args)` gives the i1 that continues the
    loop and the values passed on, `after(args)` emits the body and gives the values of the next iteration;
    `unroll` is the loop's `#[unroll]` count. The loop's results."""
    loop = scf.WhileOp(types, inits)
    annotate_unroll(loop, unroll)
    before_block = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before_block):
        go, values = before(list(before_block.arguments))
        scf.ConditionOp(go, values)
    after_block = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after_block):
        scf.YieldOp(after(list(after_block.arguments)))
    return list(loop.results)


# Analyses of the AST ------------------------------------------------------------------------------------
def walk(node: Any) -> Iterator[Any]:
    """Every AST node under `node` (closures included)."""
    yield node
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from walk(item)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            if name in ("loc", "ty"):
                continue
            yield from walk(getattr(node, name))


def contains(node: Any, *kinds: type) -> bool:
    """Whether a node of one of `kinds` is under `node`."""
    return any(isinstance(n, kinds) for n in walk(node))


def may_jump(node: Any) -> bool:
    """Whether a statement contains a break, continue or return (remembered on the node: emission asks this
    of every statement of every block, and again when a kernel is re-emitted with a literal retyped)."""
    cached = getattr(node, "__dict__", {}).get("_may_jump")
    if cached is not None:
        return cached
    found = contains(node, ast.Break, ast.Continue, ast.Return)
    if hasattr(node, "__dict__"):
        node.__dict__["_may_jump"] = found
    return found


def visit(node: Any, visitor: Callable[[Any, int], bool], depth: int = 0) -> None:
    """Call `visitor(node, depth)` on AST nodes, not into closures, and below a node only when it returns
    True; `depth` counts the loop bodies entered below the start."""
    if isinstance(node, (list, tuple)):
        for item in node:
            visit(item, visitor, depth)
        return
    if not hasattr(node, "__dataclass_fields__") or isinstance(node, ast.Closure):
        return
    if not visitor(node, depth):
        return
    inner = depth + 1 if isinstance(node, (ast.For, ast.While, ast.Loop)) else depth
    for name in node.__dataclass_fields__:
        if name not in ("loc", "ty"):
            visit(getattr(node, name), visitor, inner if name == "body" else depth)


def assigned_names(nodes: list[Any]) -> list[str]:
    """The plain variables (`x = ...`, `x += ...`) that `nodes` assign, in order of first assignment."""
    names: list[str] = []

    def note(node: Any, depth: int) -> bool:
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.PathExpr) and len(node.target.segments) == 1:
            if node.target.segments[0] not in names:
                names.append(node.target.segments[0])
        return True

    visit(nodes, note)
    return names


def jumps(nodes: list[Any]) -> list[tuple[str, str | None, Any]]:
    """The `break`/`continue`s in `nodes` that leave them (not those of loops nested inside, unless labelled):
    (kind, label, location); for a loop body, the loop's own jumps."""
    found: list[tuple[str, str | None, Any]] = []

    def note(node: Any, depth: int) -> bool:
        if isinstance(node, (ast.Break, ast.Continue)) and (depth == 0 or node.label is not None):
            found.append(("break" if isinstance(node, ast.Break) else "continue", node.label, node.loc))
        return True

    visit(nodes, note)
    return found
