"""The PTX fixtures the GPU tests run are exactly what the compiler emits today (tests/fixtures/sources.py)."""

import pytest

from tests.fixtures.sources import FIXTURES, compile_fixture, sources

SOURCES = sources()


@pytest.mark.parametrize("fixture", sorted(SOURCES))
def test_fixture_is_current(fixture):
    expected = FIXTURES / fixture
    assert expected.exists(), f"missing fixture {fixture}: run python tests/fixtures/sources.py"
    assert compile_fixture(SOURCES[fixture]).strip() == expected.read_text().strip(), \
        f"stale fixture {fixture}: run python tests/fixtures/sources.py"
