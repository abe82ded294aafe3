"""The mutations: token, line, literal, type, identifier and comment edits. Each takes the text, its suffix,
a seeded Random and the corpus vocabulary, and returns a changed text, or None where it has nothing to edit
(a literal mutation of an input without literals)."""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.fuzz.tokens import Token, splice, tokenize

Mutator = Callable[[str, str, random.Random, list[str]], "str | None"]

BOUNDARY_INTEGERS = (
    "0", "-1", "1", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616", "9" * 40, "0x", "0xFFFFFFFFFFFFFFFFFF",
    "0b102", "0o8", "1_", "_1", "00", "1__0",
)
BOUNDARY_FLOATS = ("0.0", "-0.0", "1e308", "1e309", "1e-400", "3.4028236e38", "1.", "1.0.0", "1e", "1e+", ".5",
                   "0x1p3", "1.5e308f32", "1" * 400 + ".0")
# Well-formed, out-of-range and malformed suffixes: the literal paths must reject all of them with a location.
SUFFIXES = ("", "u8", "i8", "u32", "i32", "u64", "i64", "u128", "i128", "usize", "isize", "f16", "f32", "f64",
            "i7", "u0", "f33", "xyz", "_u32", "e5")
BAD_STRINGS = ('"\\q"', '"\\u{110000}"', '"\\u{d800}"', '"\\x80"', '"\\xZZ"', '"\\u{}"', '"\\"', '"é%d"',
               '"%s %d %"', '"\\0\\n\\t"', '""', '"' + "x" * 2000 + '"', 'b"\\xff"', 'r"raw"')
BAD_CHARS = ("'\\q'", "'\\u{110000}'", "''", "'ab'", "'\\x80'", "'é'", "'\\u{}'", "'\\''")
RUST_TYPES = ("f32", "f64", "f16", "bf16", "tf32", "i1", "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32",
              "u64", "u128", "usize", "isize", "bool", "char", "str")
MLIR_TYPES = ("i0", "i1", "i7", "i65", "i4096", "si32", "ui32", "index", "f16", "bf16", "tf32", "f8E4M3FN", "f80",
              "f128", "none", "complex<f32>", "vector<4xf32>", "vector<0xi1>", "tensor<?xf32>", "memref<?xf32>",
              "!llvm.ptr", "!llvm.ptr<1>", "!llvm.ptr<3>", "!llvm.ptr<7>", "!llvm.ptr<4294967295>",
              "!llvm.struct<(i32, f32)>", "!llvm.array<4 x i8>")
TYPE_NAMES = frozenset(RUST_TYPES) | frozenset(t for t in MLIR_TYPES if t.isidentifier())
RUST_KEYWORDS = ("fn", "let", "mut", "if", "else", "for", "while", "loop", "match", "return", "break", "continue",
                 "unsafe", "pub", "struct", "impl", "use", "as", "in", "self", "Self", "const", "static", "type",
                 "where", "move", "ref", "true", "false", "crate", "super", "enum", "trait", "dyn", "async")
ODD_NAMES = ("_", "__", "é", "ñame", "名前", "Ω", "a" * 300, "x" * 5000, "_0", "r#fn", "kernel", "main", "None")
COMMENTS = ("// c\n", "/* c */", "/// doc\n", "//! inner\n", "/* a /* nested */ b */", "/**/")


def _pick(tokens: list[Token], rng: random.Random, kinds: tuple[str, ...]) -> Token | None:
    chosen = [t for t in tokens if t.kind in kinds]
    return rng.choice(chosen) if chosen else None


def token_delete(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Delete one token."""
    tokens = tokenize(text, suffix)
    if not tokens:
        return None
    t = rng.choice(tokens)
    return splice(text, t.start, t.end, "")


def token_duplicate(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Repeat one token."""
    tokens = tokenize(text, suffix)
    if not tokens:
        return None
    t = rng.choice(tokens)
    return splice(text, t.start, t.end, t.text + " " + t.text)


def token_swap(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Exchange two different tokens."""
    tokens = tokenize(text, suffix)
    if len({t.text for t in tokens}) < 2:
        return None
    a, b = sorted(rng.sample(tokens, 2), key=lambda t: t.start)
    while a.text == b.text:
        a, b = sorted(rng.sample(tokens, 2), key=lambda t: t.start)
    return text[:a.start] + b.text + text[a.end:b.start] + a.text + text[b.end:]


def token_replace(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Replace one token with another token of the corpus vocabulary."""
    tokens = tokenize(text, suffix)
    if not tokens or not vocab:
        return None
    t = rng.choice(tokens)
    new = rng.choice(vocab)
    return splice(text, t.start, t.end, new) if new != t.text else None


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def line_delete(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Delete one line."""
    lines = _lines(text)
    if not lines:
        return None
    del lines[rng.randrange(len(lines))]
    return "".join(lines)


def line_duplicate(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Repeat one line."""
    lines = _lines(text)
    if not lines:
        return None
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i] if lines[i].endswith("\n") else lines[i] + "\n")
    return "".join(lines)


def line_swap(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Exchange two lines."""
    lines = [line if line.endswith("\n") else line + "\n" for line in _lines(text)]
    if len(set(lines)) < 2:
        return None
    i, j = rng.sample(range(len(lines)), 2)
    while lines[i] == lines[j]:
        i, j = rng.sample(range(len(lines)), 2)
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def line_move(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Move one line elsewhere."""
    lines = [line if line.endswith("\n") else line + "\n" for line in _lines(text)]
    if len(set(lines)) < 2:
        return None
    line = lines.pop(rng.randrange(len(lines)))
    lines.insert(rng.randrange(len(lines) + 1), line)
    moved = "".join(lines)
    return moved if moved != text else None


def literal(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Replace a number, string or char literal with a boundary or malformed one."""
    t = _pick(tokenize(text, suffix), rng, ("number", "string", "char"))
    if t is None:
        return None
    if t.kind == "string":
        new = rng.choice(BAD_STRINGS)
    elif t.kind == "char":
        new = rng.choice(BAD_CHARS)
    else:
        new = rng.choice(BOUNDARY_FLOATS if rng.random() < 0.4 else BOUNDARY_INTEGERS)
        if suffix == ".rs" and rng.random() < 0.5:
            new += rng.choice(SUFFIXES)
    return splice(text, t.start, t.end, new) if new != t.text else None


def type_change(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Replace a type name with another type (Rust scalar types, or MLIR types with odd widths and spaces)."""
    t = _pick([t for t in tokenize(text, suffix) if t.text in TYPE_NAMES], rng, ("ident",))
    if t is None:
        return None
    new = rng.choice(RUST_TYPES if suffix == ".rs" else MLIR_TYPES)
    return splice(text, t.start, t.end, new) if new != t.text else None


def identifier(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Rename one identifier: to `_`, a keyword, non-ASCII letters, a very long name, or another identifier."""
    tokens = [t for t in tokenize(text, suffix) if t.kind == "ident" and t.text not in TYPE_NAMES]
    if not tokens:
        return None
    t = rng.choice(tokens)
    sigil = t.text[0] if suffix == ".mlir" and t.text[0] in "%@!#^" else ""
    choice = rng.random()
    if choice < 0.3:
        name = rng.choice([x.text for x in tokens]).lstrip("%@!#^")
    elif choice < 0.5 and suffix == ".rs":
        name = rng.choice(RUST_KEYWORDS)
    else:
        name = rng.choice(ODD_NAMES)
    new = sigil + name
    return splice(text, t.start, t.end, new) if new != t.text else None


def comment(text: str, suffix: str, rng: random.Random, vocab: list[str]) -> str | None:
    """Insert a comment (line, block, doc) between two tokens or at a line start."""
    tokens = tokenize(text, suffix)
    if rng.random() < 0.5 or not tokens:
        starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        at = rng.choice(starts)
    else:
        at = rng.choice(tokens).end
    note = rng.choice(COMMENTS)
    if note.endswith("\n") and at < len(text) and at > 0 and text[at - 1] != "\n":
        note = " " + note  # a line comment after a token ends the line; the rest moves to the next line
    return splice(text, at, at, note)


MUTATORS: dict[str, Mutator] = {f.__name__: f for f in (
    token_delete, token_duplicate, token_swap, token_replace, line_delete, line_duplicate, line_swap, line_move,
    literal, type_change, identifier, comment)}
