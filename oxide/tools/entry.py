"""The console-script wrapper: a bug in oxide is reported as an internal error, never as a traceback."""

from __future__ import annotations

import os
import sys
import traceback

import click

from oxide.ir.isolation import MLIRAborted

INTERNAL_ERROR_STATUS = 2


def run_cli(command: click.Command) -> None:
    """Run a click command; turn an unexpected exception into one line (the traceback with OXIDE_DEBUG=1).

    Exit status: 0 on success, 1 for bad input (a located error, or a usage error such as an unknown option:
    click's own convention of 2 for those would be read as an internal error), 2 for a bug in oxide."""
    try:
        status = command.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(1)
    except Exception as exc:
        if os.environ.get("OXIDE_DEBUG"):
            traceback.print_exc()
        # An abort's message already says what it is; other exceptions are named by their type.
        what = str(exc) if isinstance(exc, MLIRAborted) else f"{type(exc).__name__}: {exc}"
        click.echo(f"internal error: {what}\n"
                   "this is a bug in oxide; please report it with the input (OXIDE_DEBUG=1 shows the traceback)",
                   err=True)
        sys.exit(INTERNAL_ERROR_STATUS)
    sys.exit(status if isinstance(status, int) else 0)  # `--help` and `ctx.exit(n)` return their status
