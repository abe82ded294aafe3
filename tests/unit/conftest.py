"""Shared fixtures: a context with oxide's dialects (and the test dialect) loaded."""

import pytest
from mlir import ir

from oxide.dialects.context import make_context


@pytest.fixture()
def ctx():
    """A fresh oxide context, entered, with an unknown default location."""
    from tests.unit.ir.testdialect import DIALECT

    context = make_context(extra_dialects=[DIALECT])
    with context, ir.Location.unknown():
        yield context
