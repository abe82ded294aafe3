"""The console-script wrapper: a bug in oxide is reported as an internal error, never as a traceback."""

from __future__ import annotations

import os
import sys
import traceback

import click

from oxide.ir.isolation import MLIRAborted

INTERNAL_ERROR_STATUS = 2


def run_cli(command: click.Command) -> None:
    """Run a click command; turn an unexpected exception into one line (the traceback with OXIDE_DEBUG=1)."""
    try:
        command()
    except Exception as exc:
        if os.environ.get("OXIDE_DEBUG"):
            traceback.print_exc()
        # An abort's message already says what it is; other exceptions are named by their type.
        what = str(exc) if isinstance(exc, MLIRAborted) else f"{type(exc).__name__}: {exc}"
        click.echo(f"internal error: {what}\n"
                   "this is a bug in oxide; please report it with the input (OXIDE_DEBUG=1 shows the traceback)",
                   err=True)
        sys.exit(INTERNAL_ERROR_STATUS)
