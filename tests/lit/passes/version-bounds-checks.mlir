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
// The checked copy ends in inline PTX (a comment), which LLVM can neither merge nor move, so the two copies
// keep their own last iterations.
// CHECK:        "simt.inline_ptx"() {asm = "// end of the bounds-checked copy of a versioned loop"
// CHECK-NEXT: }
// The store after the loop is not in a loop: it keeps its check.
// CHECK:      "simt.store"(%arg2

// The largest index of x[r * cols + c] is last_r * cols + c: the product is accepted when both of its
// factors are below 2^32 (it cannot wrap then), the sum when it does not wrap, the index when below len.
// CHECK-LABEL: gpu.func @column_sum
// CHECK:      %[[LAST:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:      %[[LIMIT:.*]] = arith.constant 4294967296 : i64
// CHECK:      %[[BOTH:.*]] = arith.ori %[[LAST]], %arg2 : i64
// CHECK:      arith.cmpi ult, %[[BOTH]], %[[LIMIT]] : i64
// CHECK:      %[[PRODUCT:.*]] = arith.muli %[[LAST]], %arg2 : i64
// CHECK:      %[[INDEX:.*]] = arith.addi %{{.*}}, %[[PRODUCT]] : i64
// CHECK:      arith.cmpi uge, %[[INDEX]], %[[PRODUCT]] : i64
// CHECK:      %[[LEN:.*]] = "simt.len"(%arg0)
// CHECK:      scf.if
// CHECK:        "simt.load_unchecked"(%arg0
// CHECK:      } else {
// CHECK:        "simt.load"(%arg0

// PTX: .entry row_sum
// PTX: trap

// A loop nest is versioned from the outside: the check before the outer loop covers x[(r0 + j) * cols + c]
// for the largest j and the largest i of the inner loop (c = threadIdx.x + i, recomputed before the nest), so
// the fast copy is the whole nest unchecked. In the checked copy the inner loop is versioned on its own.
// CHECK-LABEL: gpu.func @tile_copy
// CHECK:      "simt.thread_id"
// CHECK:      "simt.len"(%arg0)
// CHECK:      "simt.len"(%arg2)
// CHECK:      scf.if %{{.*}} {
// CHECK-NEXT:   scf.for %[[J:.*]] =
// CHECK:          scf.for %[[I:.*]] =
// CHECK:            "simt.load_unchecked"(%arg0
// CHECK-NEXT:       "simt.store_unchecked"(%arg2
// CHECK:      } else {
// CHECK-NEXT:   scf.for
// CHECK:              "simt.load_unchecked"(%arg0
// CHECK:          } else {
// CHECK-NEXT:       scf.for
// CHECK:              "simt.load"(%arg0
