// RUN: not oxide-opt %s --split-input-file 2>&1 | FileCheck %s
// An op's explicit location is where its errors are reported: IR that a frontend emitted from a .rs file
// keeps pointing into the .rs file. (A fuzz input of the long runs wrote one in a mutated lit input.)

func.func @f() {
  // CHECK: kernel.rs:7:3: error: op expects exactly 2 operands, but got 0
  // CHECK: kernel.rs:7:3: note: see current operation: "simt.ref_store"() : () -> ()
  "simt.ref_store"() : () -> () loc("kernel.rs":7:3)
  return
}

// -----

// The largest column a location holds is read unsigned (the bindings read it as -1).
func.func @g() {
  // CHECK: kernel.rs:7:4294967295: error: op expects exactly 2 operands, but got 0
  "simt.ref_store"() : () -> () loc("kernel.rs":7:4294967295)
  return
}

// -----

// A location with an empty file name is in the input itself.
func.func @h() {
  // CHECK: explicit-locations.mlir:8:3: error: op expects exactly 2 operands, but got 0
  "simt.ref_store"() : () -> () loc("":8:3)
  return
}

// -----

// Also a line-only location with an empty file name.
func.func @i() {
  // CHECK: explicit-locations.mlir:83:0: error: op expects exactly 2 operands, but got 0
  "simt.ref_store"() : () -> () loc("":83)
  return
}
