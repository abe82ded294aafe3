// A lowered kernel is a simt kernel (it keeps tile.warps for the runtime): lowering the output again changes
// nothing.
// RUN: %oxide-opt %S/lower-memory.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' -o %t.once.mlir
// RUN: %oxide-opt %t.once.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
