// oxide-version-bounds-checks: the strided row loop gets one check of its last index before it, an unchecked
// copy when that check passes, and the original (checked) loop otherwise.
// RUN: %oxide-opt %S/Inputs/versioned_loop.rs --pass-pipeline='builtin.module(oxide-version-bounds-checks)' | FileCheck %s
// RUN: %oxide-opt %S/Inputs/versioned_loop.rs --emit=ptx | FileCheck %s --check-prefix=PTX

// The last counter value the loop can reach: first + ((cols - 1 - first) / step) * step.
// CHECK:      %[[FIRST:.*]] = memref.load %[[J:.*]][] : memref<i64>
// CHECK:      %[[SPAN:.*]] = arith.subi %{{.*}}, %[[FIRST]] : i64
// CHECK:      %[[K:.*]] = arith.divui %[[SPAN]], %{{.*}} : i64
// CHECK:      %[[LEN:.*]] = "simt.len"(%arg0)
// CHECK:      scf.if %{{.*}} {
// CHECK:        scf.while
// CHECK:          "simt.load_unchecked"(%arg0, %{{.*}})
// CHECK:      } else {
// CHECK:        scf.while
// CHECK:          "simt.load"(%arg0, %{{.*}})
// CHECK:      }
// The store after the loop is not in a loop: it keeps its check.
// CHECK:      "simt.store"(%arg2

// PTX: .entry row_sum
// PTX: trap
