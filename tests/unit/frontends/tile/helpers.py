"""Shared helpers of the tile frontend tests: compile cutile-rs source, verify the tile IR, check text in
order (FileCheck-style), and assert a located rejection."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from mlir import ir

from oxide.frontends.tile import compile_tile
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError
from oxide.ir.verifier import python_verifier_failures


@lru_cache(maxsize=1)
def context() -> ir.Context:
    return make_context()


def build(src: str, instances=None, name: str = "k.rs"):
    """The frontend result of `src`, after checking that its module verifies (upstream + oxide-verify)."""
    result = compile_tile(src, name, context(), instances)
    with context():
        assert result.module.operation.verify()
        assert python_verifier_failures(result.module.operation) == []
    return result


def ir_text(src: str, instances=None, debug: bool = False) -> str:
    module = build(src, instances).module
    with context():
        return module.operation.get_asm(enable_debug_info=debug)


def kernel(body: str, params: str = "z: &mut Tensor<f32, {[128]}>, x: &Tensor<f32, {[-1]}>", generics: str = "",
           extra: str = "", entry: str = "#[cutile::entry]", unsafe: bool = False) -> str:
    """A module holding one entry `k` with `body`, followed by `extra` items."""
    return (f"#[cutile::module]\nmod m {{\n    use cutile::core::*;\n    {entry}\n"
            f"    {'unsafe ' if unsafe else ''}fn k{generics}({params}) {{\n{body}\n    }}\n{extra}\n}}\n")


def check(text: str, *patterns: str) -> None:
    """Each pattern (a regex) occurs in `text`, in order (as FileCheck's CHECK lines)."""
    pos = 0
    for pattern in patterns:
        found = re.compile(pattern).search(text, pos)
        assert found, f"`{pattern}` not found after position {pos} in:\n{text}"
        pos = found.end()


def check_not(text: str, *patterns: str) -> None:
    for pattern in patterns:
        assert re.search(pattern, text) is None, f"`{pattern}` found in:\n{text}"


def reject(src: str, line: int, col: int, message: str, instances=None) -> OxideError:
    """`src` is rejected with an error at k.rs:line:col whose message contains `message`."""
    with pytest.raises(OxideError) as info:
        compile_tile(src, "k.rs", context(), instances)
    diag = info.value.diagnostics[0]
    assert diag.loc is not None and (diag.loc.file, diag.loc.line, diag.loc.col) == ("k.rs", line, col), \
        info.value.render({"k.rs": src})
    assert message in diag.message, diag.message
    return info.value
