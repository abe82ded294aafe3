"""A lexer good enough to mutate Rust and MLIR text: tokens with their spans, so that a mutation edits one
token and keeps everything around it byte for byte."""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMON = [
    ("comment", r"//[^\n]*|/\*.*?\*/"),
    ("string", r'"(?:\\.|[^"\\\n])*"'),
    ("char", r"'(?:\\.|[^'\\\n])'"),
    ("number", r"0[xob][0-9a-fA-F_]+\w*|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?\w*"),
]
_IDENT = {
    ".rs": r"[A-Za-z_]\w*",
    # MLIR names carry their sigil and dots: %arg0, @kernel, !simt.slice, #map, simt.load, ^bb0.
    ".mlir": r"[%@!#^]?[A-Za-z_$][\w$.]*|%\d+",
}
_PUNCT = r"::|->|=>|\.\.=?|[^\s\w]"
_LEXERS = {
    suffix: re.compile("|".join(f"(?P<{k}>{p})" for k, p in [*_COMMON, ("ident", ident), ("punct", _PUNCT)]),
                       re.DOTALL)
    for suffix, ident in _IDENT.items()
}


@dataclass(frozen=True)
class Token:
    """One token: its kind (comment, string, char, number, ident, punct), text and [start, end) span."""

    kind: str
    text: str
    start: int
    end: int


def tokenize(text: str, suffix: str) -> list[Token]:
    """The tokens of `text` (.rs or .mlir lexing rules); whitespace and unlexable bytes are skipped."""
    return [Token(m.lastgroup or "punct", m.group(), m.start(), m.end()) for m in _LEXERS[suffix].finditer(text)]


def splice(text: str, start: int, end: int, replacement: str) -> str:
    """`text` with [start, end) replaced."""
    return text[:start] + replacement + text[end:]
