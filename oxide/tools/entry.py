"""The console-script wrapper: a bug in oxide is reported as an internal error, never as a traceback."""

from __future__ import annotations

import os
import sys
import traceback

import click

INTERNAL_ERROR_STATUS = 2


def run_cli(command: click.Command) -> None:
    """Run a click command; turn an unexpected exception into one line (the traceback with OXIDE_DEBUG=1)."""
    try:
        command()
    except Exception as exc:
        if os.environ.get("OXIDE_DEBUG"):
            traceback.print_exc()
        click.echo(f"internal error: {type(exc).__name__}: {exc}\n"
                   "this is a bug in oxide; please report it with the input (OXIDE_DEBUG=1 shows the traceback)",
                   err=True)
        sys.exit(INTERNAL_ERROR_STATUS)
