"""Tile kernels under rejections/ (inputs a fuzzer found): each must get one located error, never a traceback.
The first line of each says where and what: `// expect: <line>:<col>: <message substring>`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oxide.frontends.tile import compile_tile
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError

REJECTIONS = Path(__file__).parent / "rejections"
_EXPECT = re.compile(r"^// expect: (\d+):(\d+): (.+)$")


@pytest.mark.parametrize("path", sorted(REJECTIONS.glob("*.rs")), ids=lambda p: p.stem)
def test_rejection(path: Path):
    text = path.read_text()
    match = _EXPECT.match(text.splitlines()[0])
    assert match, "a rejection file starts with `// expect: <line>:<col>: <message substring>`"
    with pytest.raises(OxideError) as info:
        compile_tile(text, path.name, make_context())
    diag = info.value.diagnostics[0]
    assert diag.severity == "error" and diag.loc is not None, diag.message
    assert (diag.loc.line, diag.loc.col) == (int(match.group(1)), int(match.group(2))), diag.message
    assert match.group(3).strip() in diag.message
