"""Reading a source file (.rs or .mlir) as UTF-8, with a located error at the first byte that is not UTF-8.

Every command and the Python API read sources through here, so a file saved in another encoding is a user
error that names the bad byte and its position, never a UnicodeDecodeError. Imports no MLIR.
"""

from __future__ import annotations

from pathlib import Path

from oxide.diagnostics import OxideError, SourceLoc


def read_source(path: str | Path) -> str:
    """The text of the file at `path`; OxideError when it is not UTF-8 (OSError when it cannot be read)."""
    return decode_source(Path(path).read_bytes(), str(path))


def decode_source(data: bytes, name: str) -> str:
    """`data` decoded as UTF-8; OxideError at the line and column of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]  # valid UTF-8: the error is at the first bad byte
        line_start = before.rfind(b"\n") + 1
        loc = SourceLoc(name, before.count(b"\n") + 1, len(before[line_start:].decode("utf-8")) + 1)
        raise OxideError(f"the file is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
                         f"({exc.reason}); oxide reads sources as UTF-8: save the file as UTF-8", loc) from None


def snippet_text(path: str | Path) -> str:
    """The file's text for the source lines under diagnostics: bad bytes replaced, "" when unreadable."""
    try:
        return Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""
