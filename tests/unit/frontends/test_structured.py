"""The structured-control-flow floor: which flags are live, which jumps leave a body, what a body assigns."""

from __future__ import annotations

from oxide.frontends.structured import Frame, assigned_names, jumps, live_flags, may_jump
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.items import build_function, no_attributes
from oxide.frontends.syntax.parser import Source, parse
from oxide.frontends.syntax.build import Builder


def _body(src: str) -> ast.Block:
    source = Source("k.rs", "fn k() {\n" + src + "\n}\n")
    node = parse(source).root_node.named_children[0]
    return build_function(Builder(source, {}), node, [], no_attributes).body


def test_live_flags_are_outermost_first_and_skip_a_loops_own_continue() -> None:
    outer: Frame[str, None] = Frame("function", None, exit_flag="ret")
    loop: Frame[str, None] = Frame("loop", None, exit_flag="brk", continue_flag="cont")
    quiet: Frame[str, None] = Frame("loop", "a")
    assert live_flags([outer, loop, quiet]) == ["ret", "brk", "cont"]
    assert live_flags([outer, loop], ignore_continue_of=loop) == ["ret", "brk"]


def test_jumps_leave_only_the_body_they_are_written_in() -> None:
    body = _body("let mut s = 0; for i in 0..4 { if i == 2 { continue; } s = s + i; } "
                 "while s > 0 { s = s - 1; break 'outer; } if s == 3 { break; }")
    assert [(kind, label) for kind, label, _ in jumps([body])] == [("break", "outer"), ("break", None)]
    assert assigned_names([body]) == ["s"]
    assert may_jump(body.stmts[1]) and not may_jump(body.stmts[0])
