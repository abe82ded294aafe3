"""Tests of the benchmark harnesses (they run without the external example checkouts)."""
