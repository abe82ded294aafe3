// Kernel metadata: launch bounds and the contract's block shape become PTX directives.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry bounded(
    // CHECK: .maxntid 256, 1, 1
    // CHECK-NEXT: .minnctapersm 2
    gpu.func @bounded(%out: !simt.slice_mut<i32>) kernel attributes {simt.launch_bounds = array<i32: 256, 2>} {
      gpu.return
    }

    // CHECK-LABEL: .entry exact(
    // CHECK: .reqntid 128, 2, 1
    gpu.func @exact(%out: !simt.slice_mut<i32>) kernel attributes {simt.contract = {domain = 2 : i64, block = array<i32: 128, 2, 1>}} {
      gpu.return
    }

    // Both: the exact shape only (ptxas rejects .maxntid next to .reqntid), and the occupancy hint.
    // CHECK-LABEL: .entry both(
    // CHECK-NOT: .maxntid
    // CHECK: .reqntid 128, 1, 1
    // CHECK-NEXT: .minnctapersm 4
    gpu.func @both(%out: !simt.slice_mut<i32>) kernel attributes {simt.launch_bounds = array<i32: 128, 4>, simt.contract = {domain = 1 : i64, block = array<i32: 128, 1, 1>}} {
      gpu.return
    }
  }
}
