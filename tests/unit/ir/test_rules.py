"""The one rule mechanism (oxide.ir.rules): registration by op class, the located error for an op with no
rule, and the rule that op names are spelled only in the dialect declarations."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest
from mlir import ir
from mlir.dialects import arith, math, scf

import oxide.dialects.simt  # noqa: F401  (declares the simt dialect)
import oxide.dialects.tile  # noqa: F401  (declares the tile dialect)
from oxide.dialects import simt
from oxide.dialects.context import make_context
from oxide.ir.declare import DIALECTS
from oxide.ir.registry import DuplicateRegistration
from oxide.ir.rules import FollowsFailure, LoweringError, OpMap, OpSet, RuleSet, is_op, ops_of
from oxide.passes.conversion.tile_to_simt.elementwise import lower_constant, lower_elementwise
from oxide.passes.conversion.tile_to_simt.mask_elision import lower_select
from oxide.passes.conversion.tile_to_simt.rules import TILE_TO_SIMT

ROOT = Path(__file__).resolve().parents[3]
_UPSTREAM = ("arith", "builtin", "cf", "func", "gpu", "llvm", "math", "memref", "nvvm", "scf", "vector")
# String literals that look like op names but are not used as op names, each with its reason.
ALLOWED = {
    # A textual pass pipeline anchors on `builtin.module` (pipeline syntax, not an op test).
    ("oxide/passes/pipeline.py", "builtin.module"),
}
_LITERAL = re.compile(r"""["']((?:[a-z_]+)\.[a-z_.0-9]+)["']""")


def _all_op_names() -> set[str]:
    names = {op.OPERATION_NAME for dialect in DIALECTS.values() for op in dialect.ops}
    for name in _UPSTREAM:
        names |= {cls.OPERATION_NAME for cls in ops_of(importlib.import_module(f"mlir.dialects.{name}"))}
    return names


def test_a_class_registered_twice_is_refused():
    rules = RuleSet("a test", "no rule for {op}")

    @rules.lowering(scf.ForOp)
    def first(ctx, op):
        return None

    with pytest.raises(DuplicateRegistration, match="a test rule for op `scf.for` is registered twice"):
        rules.lowering(arith.AddIOp, scf.ForOp)(lambda ctx, op: None)
    with make_context():
        assert rules.rule_for(_parsed_for()) is first


_KEEP: list[ir.Module] = []  # an op lives only as long as its module


def _parsed_for() -> ir.Operation:
    module = ir.Module.parse("""
        func.func @f(%n: index) {
          scf.for %i = %n to %n step %n {
          }
          return
        }""")
    _KEEP.append(module)
    body = module.body.operations[0].regions[0].blocks[0]
    return next(op.operation for op in body.operations if op.operation.name == scf.ForOp.OPERATION_NAME)


def test_an_op_without_a_rule_is_a_located_error():
    with make_context():
        rules = RuleSet("a test", "'{op}' has no rule here")
        loop = _parsed_for()
        assert rules.rule_for(loop) is None
        with pytest.raises(LoweringError) as caught:
            rules.require(loop)
        assert caught.value.message == "'scf.for' has no rule here"
        assert caught.value.location == loop.location


def test_apply_locates_what_a_rule_raises_and_keeps_its_kind():
    with make_context():
        rules = RuleSet("a test", "no rule for {op}")

        @rules.lowering(scf.ForOp)
        def refuse(ctx, op):
            raise FollowsFailure("an operand failed")

        loop = _parsed_for()
        with pytest.raises(FollowsFailure) as caught:
            rules.apply(loop, None, loop)
        assert caught.value.location == loop.location and caught.value.message == "an operand failed"


def test_op_classes_answer_by_op():
    with make_context():
        loop = _parsed_for()
        assert is_op(loop, scf.ForOp) and is_op(loop, scf.IfOp, scf.ForOp) and not is_op(loop, scf.IfOp)
        assert loop in OpSet(scf.WhileOp, scf.ForOp) and loop not in OpSet(simt.LoadOp)
        assert OpMap({scf.ForOp: "loop"})[loop] == "loop"
        assert not is_op(loop.block, scf.ForOp)  # a block is never an op


def test_every_arith_and_math_op_has_the_tile_elementwise_rule():
    """Every op but the constant and the select (whose rule may skip its mask, and otherwise is this one)."""
    special = {arith.ConstantOp.OPERATION_NAME: lower_constant, arith.SelectOp.OPERATION_NAME: lower_select}
    for cls in ops_of(arith, math):
        expected = special.get(cls.OPERATION_NAME, lower_elementwise)
        assert TILE_TO_SIMT.rule_for(_Named(cls.OPERATION_NAME)) is expected, cls.OPERATION_NAME


class _Named:
    """Stands for an op of a given name (rule lookups read only `.operation.name`)."""

    def __init__(self, name: str):
        self.name = name
        self.operation = self


def _op_name_literals(path: Path) -> list[str]:
    return _LITERAL.findall(path.read_text())


def test_op_names_are_spelled_only_in_the_dialect_declarations():
    op_names = _all_op_names()
    found = []
    for floor in ("analysis", "passes", "backend"):
        for path in sorted((ROOT / "oxide" / floor).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            for literal in _op_name_literals(path):
                if literal in op_names and (relative, literal) not in ALLOWED:
                    found.append(f"{relative}: {literal!r}")
    assert not found, "op names spelled as strings (use the op class: is_op, OpSet, OpMap):\n" + "\n".join(found)


def test_the_allowlist_names_only_literals_that_exist():
    for relative, literal in ALLOWED:
        assert literal in _op_name_literals(ROOT / relative), (relative, literal)


def test_ops_of_lists_each_op_name_once():
    classes = ops_of(arith, math)
    names = [cls.OPERATION_NAME for cls in classes]
    assert len(names) == len(set(names)) and "arith.addi" in names and "math.sqrt" in names
    assert all(inspect.isclass(cls) for cls in classes)
