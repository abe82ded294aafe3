"""The tile operation registry: a name is registered once per table, and extending a method is explicit."""

from __future__ import annotations

import pytest

from oxide.frontends.tile import registry
from oxide.ir.registry import DuplicateRegistration, Registry


def test_a_second_registration_of_a_name_is_refused() -> None:
    assert "broadcast" in registry.METHODS  # the catalogue is loaded with the emitter
    with pytest.raises(DuplicateRegistration, match="registered twice"):
        registry.method("broadcast")(lambda em, e, recv, args, expected, name: recv)
    with pytest.raises(DuplicateRegistration, match="registered twice"):
        registry.function("iota")(lambda em, e, args, expected, name: args[0])


def test_extending_a_method_keeps_the_one_it_extends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "METHODS", Registry("tile method"))  # a scratch table, left unchanged
    name = "__test_extended"
    registry.method(name)(lambda *a: "first")
    registry.extend_method(name, lambda first: lambda *a: ("second", first(*a)))
    assert registry.METHODS[name]() == ("second", "first")
