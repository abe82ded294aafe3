"""The one registry mechanism: a key is registered once, the decorator returns what it registers, and a
replacement names an entry that exists."""

from __future__ import annotations

import pytest

from oxide.ir.registry import DuplicateRegistration, Registry


def test_the_decorator_registers_under_every_key_and_returns_the_value() -> None:
    table: Registry[str, object] = Registry("widget")

    @table.register("a", "b")
    def handler() -> None:
        pass

    assert table["a"] is handler and table.get("b") is handler and table.get("c") is None
    assert list(table) == ["a", "b"] and len(table) == 2 and "a" in table


def test_a_key_registered_twice_is_refused_and_names_both_values() -> None:
    table: Registry[type, object] = Registry("emitter for", lambda cls: cls.__name__)
    table.add(int, "first")
    with pytest.raises(DuplicateRegistration, match="emitter for `int` is registered twice: 'first' and 'second'"):
        table.add(int, "second")
    assert table[int] == "first"


def test_replace_needs_an_existing_entry() -> None:
    table: Registry[str, int] = Registry("number")
    with pytest.raises(KeyError, match="no number `x` to replace"):
        table.replace("x", 1)
    table.add("x", 1)
    table.replace("x", 2)
    assert table["x"] == 2
