"""The SIMT emitter's one dispatch table: every expression class the AST builder produces has exactly one
emitter, and a second registration for a class is refused."""

import pytest

from oxide.frontends.simt import emit  # loads every module that registers a handler
from oxide.frontends.simt.expressions.table import EMITTERS, emits
from oxide.frontends.syntax import ast
from oxide.diagnostics import OxideError
from oxide.ir.registry import DuplicateRegistration


def _expression_classes() -> set[type]:
    found, todo = set(), [ast.Expr]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found


def test_every_expression_class_has_an_emitter():
    missing = sorted(cls.__name__ for cls in _expression_classes() - set(EMITTERS))
    assert missing == []


def test_the_table_holds_only_expression_classes():
    assert set(EMITTERS) <= _expression_classes()


def test_a_second_emitter_for_a_class_is_refused():
    before = dict(EMITTERS.items())
    with pytest.raises(DuplicateRegistration, match="expression emitter for `Binary` is registered twice"):
        @emits(ast.Binary)
        def e_binary_again(em, e, expected):  # pragma: no cover - never registered
            raise AssertionError

    assert dict(EMITTERS.items()) == before


def test_an_expression_class_without_an_emitter_gives_a_located_error():
    class Unknown:  # not an ast.Expr subclass, so the coverage test above does not see it
        loc = None

    em = emit.FunctionEmitter.__new__(emit.FunctionEmitter)
    with pytest.raises(OxideError, match="Unknown expressions are not supported in device code"):
        em.expr(Unknown())
