"""The shared kernel-module floor: the Retype driver re-emits until the literal types settle, and gives up
with a located internal error when they never do."""

from __future__ import annotations

import pytest

from oxide.frontends.kernel_module import MAX_RETYPES, KernelInfo, Retype, entry_name, settle_literals
from oxide.frontends.syntax import ast
from oxide.diagnostics import OxideError, SourceLoc

_LOC = SourceLoc("k.rs", 3, 1)


def _fn(name: str = "k") -> ast.Function:
    return ast.Function(_LOC, name, [], [], None, ast.Block(_LOC, [], None), {}, None)


def test_retypes_accumulate_until_the_emission_settles() -> None:
    seen: list[dict[int, str]] = []

    def emit_once(retypes: dict[int, str]) -> KernelInfo:
        seen.append(dict(retypes))
        for let_id, ty in ((1, "u32"), (2, "f64")):
            if let_id not in retypes:
                raise Retype(let_id, ty)
        return KernelInfo("k", "k", [])

    info = settle_literals(_fn(), emit_once)
    assert info.entry == "k"
    assert seen == [{}, {1: "u32"}, {1: "u32", 2: "f64"}]


def test_unsettled_literals_are_a_located_internal_error() -> None:
    calls = []

    def emit_once(retypes: dict[int, str]) -> KernelInfo:
        calls.append(1)
        raise Retype(len(calls), "i64")

    with pytest.raises(OxideError, match="do not settle") as caught:
        settle_literals(_fn(), emit_once)
    assert caught.value.diagnostics[0].loc == _LOC
    assert len(calls) == MAX_RETYPES


def test_entry_names_spell_type_arguments() -> None:
    assert entry_name(_fn("scale"), []) == "scale"
    assert entry_name(_fn("tile"), ["f32", "16"]) == "tile_f32_16"
    assert entry_name(_fn("m"), ["Foo<u8, i32>", "a::B"]) == "m_Foo_u8_i32_a_B"
