"""tree-sitter-rust adapter: parse source text and report syntax errors with locations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

import tree_sitter
import tree_sitter_rust

from oxide.diagnostics import Diagnostic, OxideError, SourceLoc

_LANGUAGE = tree_sitter.Language(tree_sitter_rust.language())


def text(node: Any) -> str:
    """The source text of a node."""
    return node.text.decode()


@dataclass(frozen=True)
class Source:
    """A Rust source file: its name and text. A macro's arguments are re-parsed as a Source of their own
    whose `origin` (line, column, prefix length) maps positions back into the file."""

    name: str
    text: str
    origin: tuple[int, int, int] = (1, 1, 0)

    @property
    def data(self) -> bytes:
        return self.text.encode()

    def loc(self, node: Any) -> SourceLoc:
        """file:line:col of a node's start (columns count characters, from 1)."""
        row, byte_col = node.start_point
        lines = self.data.split(b"\n")
        line = lines[row] if row < len(lines) else b""
        col = len(line[:byte_col].decode(errors="replace")) + 1
        first_line, first_col, prefix = self.origin
        if row == 0:
            return SourceLoc(self.name, first_line, first_col + col - 1 - prefix)
        return SourceLoc(self.name, first_line + row, col)


def syntax_tree(text: str) -> Any:
    """The tree-sitter tree of `text`, syntax errors and all (they are ERROR nodes)."""
    return tree_sitter.Parser(_LANGUAGE).parse(text.encode())


def parse(source: Source) -> Any:
    """The tree-sitter tree of `source`; raise OxideError listing every syntax error."""
    tree = tree_sitter.Parser(_LANGUAGE).parse(source.data)
    errors = [Diagnostic("error", _syntax_message(node, source), source.loc(node)) for node in _error_nodes(tree.root_node)]
    if errors:
        raise OxideError(errors[:10])
    return tree


def _error_nodes(node: Any) -> Iterator[Any]:
    if node.type == "ERROR" or node.is_missing:
        yield node
        return
    if node.has_error:
        for child in node.children:
            yield from _error_nodes(child)


def _syntax_message(node: Any, source: Source) -> str:
    if node.is_missing:
        return f"syntax error: expected `{node.type}`"
    text = node.text.decode(errors="replace").strip().splitlines()
    snippet = text[0][:40] if text else ""
    return f"syntax error: unexpected `{snippet}`" if snippet else "syntax error"
