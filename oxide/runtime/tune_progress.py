"""The tuner's progress line: one line rewritten in place on a terminal, plain lines otherwise (a log, CI)."""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressLine:
    """Reports tuning steps on `out` (stderr by default)."""

    def __init__(self, out: TextIO | None = None):
        self.out = out if out is not None else sys.stderr
        isatty = getattr(self.out, "isatty", None)
        self.in_place = bool(isatty and isatty())
        self.shown = False

    def update(self, text: str) -> None:
        """Show `text` as the current step: over the previous line on a terminal, as a new line otherwise."""
        if self.in_place:
            self.out.write(f"\r{text}\x1b[K")  # \x1b[K clears what a longer previous line left behind
        else:
            self.out.write(text + "\n")
        self.out.flush()
        self.shown = True

    def finish(self, text: str) -> None:
        """The last line (it stays on the terminal)."""
        self.update(text)
        if self.in_place:
            self.out.write("\n")
            self.out.flush()
