"""What MLIR's parser aborts on, found in the text before it is parsed.

MLIR 22's parser asserts (or calls report_fatal_error) on a few inputs instead of reporting an error, and
the bindings cannot convert a diagnostic that quotes a name which is not UTF-8. Each rule below is a
tokenizer-level scan (string literals and `//` comments are recognised, so a rule never fires inside
them) that is exact: it fires only on text no valid MLIR contains, at the offending token. What these
rules cannot decide exactly stays with the containment in oxide.ir.isolation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from oxide.diagnostics import Diagnostic, SourceLoc

_INT64_MAX = 2**63 - 1
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')
_ESCAPE = re.compile(r'\\(?:([0-9a-fA-F]{2})|(.))', re.DOTALL)
_SIMPLE_ESCAPES = {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\"}
# What may precede a generic op name on its line: nothing, a brace, and the results (`%a, %b:2 =`).
_OP_NAME_PREFIX = re.compile(r"(?:^|[{}])\s*(?:%[\w$.-]+(?::\d+)?\s*(?:,\s*%[\w$.-]+(?::\d+)?\s*)*=\s*)?$")
_DENSE_INDEX_ARRAY = re.compile(r"(?<![\w.!])array\s*<\s*index\b")
_SHAPED_TYPE = re.compile(r"(?<![\w.!])(tensor|vector|memref)<\s*((?:(?:\d+|\?|\[\d+\])\s*x\s*)+)")


@dataclass(frozen=True)
class _Source:
    """The text, with string literals and comments blanked out for the type rules, and its string tokens."""

    text: str
    masked: str
    strings: list[re.Match[str]]

    def loc(self, name: str, offset: int) -> SourceLoc:
        line_start = self.text.rfind("\n", 0, offset) + 1
        return SourceLoc(name, self.text.count("\n", 0, offset) + 1, offset - line_start + 1)


def _scan(text: str) -> _Source:
    masked = list(text)
    strings = []
    for token in _TOKENS.finditer(text):
        if token.group().startswith('"'):
            strings.append(token)
        for i in range(token.start(), token.end()):
            if masked[i] != "\n":
                masked[i] = " "
    return _Source(text, "".join(masked), strings)


def _string_bytes(literal: str) -> bytes:
    """The bytes an MLIR string literal (with its quotes) stands for: `\\n \\t \\" \\\\` and `\\XX` hex."""
    out = bytearray()
    body, pos = literal[1:-1], 0
    for escape in _ESCAPE.finditer(body):
        out += body[pos:escape.start()].encode("utf-8")
        out += bytes([int(escape.group(1), 16)]) if escape.group(1) else \
            _SIMPLE_ESCAPES.get(escape.group(2), escape.group().encode("utf-8"))
        pos = escape.end()
    return bytes(out + body[pos:].encode("utf-8"))


def _op_names(source: _Source) -> Iterator[re.Match[str]]:
    """The string tokens in op-name position: `"dialect.op"(` at the start of a statement."""
    for token in source.strings:
        after = source.masked[token.end():token.end() + 256].lstrip()  # comments may sit before the `(`
        line_start = source.text.rfind("\n", 0, token.start()) + 1
        if after.startswith("(") and _OP_NAME_PREFIX.search(source.masked[line_start:token.start()]):
            yield token


def op_names_without_operation(source: _Source) -> Iterator[tuple[int, str]]:
    """A generic op name that is only a dialect (`"simt."`, `"tile"`): MLIR aborts creating it."""
    for token in _op_names(source):
        name = _string_bytes(token.group()).decode("utf-8", "replace")
        if "." not in name or name.endswith("."):
            yield token.start(), (f"op name {token.group()} names no operation; write the dialect and the "
                                  "operation, e.g. \"simt.shuffle\"")


def names_not_utf8(source: _Source) -> Iterator[tuple[int, str]]:
    """An op name or `@"symbol"` whose escapes are not UTF-8: MLIR's error about it cannot be reported."""
    op_names = {token.start() for token in _op_names(source)}
    for token in source.strings:
        is_symbol = token.start() > 0 and source.text[token.start() - 1] == "@"
        if not (is_symbol or token.start() in op_names):
            continue
        try:
            _string_bytes(token.group()).decode("utf-8")
        except UnicodeDecodeError as exc:
            what = "symbol name" if is_symbol else "op name"
            yield token.start(), (f"{what} {token.group()} is not valid UTF-8 (byte {exc.object[exc.start]:#04x}); "
                                  "names are ASCII identifiers")


def dense_arrays_of_index(source: _Source) -> Iterator[tuple[int, str]]:
    """`array<index: ...>`: a dense array needs a fixed bit width, and MLIR asserts on `index`."""
    for match in _DENSE_INDEX_ARRAY.finditer(source.masked):
        yield match.start(), "a dense array cannot hold `index` elements; write array<i64: ...>"


def shapes_overflowing_int64(source: _Source) -> Iterator[tuple[int, str]]:
    """A tensor, vector or memref type with more elements than int64 counts: MLIR asserts computing it."""
    for match in _SHAPED_TYPE.finditer(source.masked):
        dims = [int(d.strip("[]")) for d in re.split(r"\s*x\s*", match.group(2).strip()) if d and d != "?"]
        if any(d > _INT64_MAX for d in dims):
            continue  # MLIR itself reports a dimension that does not fit
        count = 1
        for d in dims:
            count *= d
        if count > _INT64_MAX:
            yield match.start(), (f"{match.group(1)} type with {count} elements: the element count must fit "
                                  "in 64 bits; use smaller dimensions")


def unterminated_strings(source: _Source) -> Iterator[tuple[int, str]]:
    """A `"` that starts no string ending on its line: MLIR's lexer refuses it, and the bindings abort while
    reporting that error for some inputs."""
    offset = source.masked.find('"')
    if offset >= 0:
        yield offset, "unterminated string: a string literal ends with `\"` on the line where it starts"


_RULES: tuple[Callable[[_Source], Iterator[tuple[int, str]]], ...] = (
    op_names_without_operation, names_not_utf8, dense_arrays_of_index, shapes_overflowing_int64,
    unterminated_strings)


def text_problems(text: str, name: str) -> list[Diagnostic]:
    """A located error for each place in `text` that would make MLIR's parser abort."""
    source = _scan(text)
    found = sorted((offset, message) for rule in _RULES for offset, message in rule(source))
    return [Diagnostic("error", message, source.loc(name, offset)) for offset, message in found]


def non_utf8_string(text: str, name: str) -> Diagnostic | None:
    """The first string literal in `text` whose escapes are not UTF-8, for when MLIR failed on the input and
    its error, which quotes such a string, could not be converted (valid IR may hold such strings, so this is
    not a rule: it only locates a failure that already happened)."""
    source = _scan(text)
    for token in source.strings:
        try:
            _string_bytes(token.group()).decode("utf-8")
        except UnicodeDecodeError as exc:
            return Diagnostic("error", f"the input failed to parse near this string, which is not valid UTF-8 "
                                       f"(byte {exc.object[exc.start]:#04x}), so MLIR's own message cannot be "
                                       "shown; write names and strings in UTF-8", source.loc(name, token.start()))
    return None
