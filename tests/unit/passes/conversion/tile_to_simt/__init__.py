"""Tests of the tile -> simt lowering (convert-tile-to-simt)."""
