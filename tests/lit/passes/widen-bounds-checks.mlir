// oxide-widen-bounds-checks: the five reads of a stencil are checked once, before the first, with one branch
// to a trap; the reads become unchecked; the store after them keeps its own check. In the PTX the five
// checks fold into one compare of the largest index, and the five loads are issued with no branch between
// them (two traps in all: the reads' and the store's).
// RUN: %oxide-opt %S/Inputs/read_run.rs --pass-pipeline='builtin.module(oxide-widen-bounds-checks)' | FileCheck %s
// RUN: %oxide-opt %S/Inputs/read_run.rs --emit=ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @five_point
// CHECK-COUNT-5: arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:       %[[FAILED:.*]] = arith.xori
// CHECK-NEXT:  scf.if %[[FAILED]] {
// CHECK-NEXT:    "simt.trap"() : () -> ()
// CHECK-NEXT:  }
// CHECK-COUNT-5: "simt.load_unchecked"(%arg0
// CHECK-NOT:   "simt.load"(
// CHECK:       "simt.store"(%arg2

// PTX-LABEL: .entry five_point
// PTX:         max.u64
// PTX:         setp.lt.u64
// PTX-NEXT:    @%p{{[0-9]+}} bra
// PTX:         ld.global.nc.b32
// PTX-NOT:     bra
// PTX-COUNT-4: ld.global.nc.b32
// PTX-COUNT-2: trap; exit;
// PTX-NOT:     trap
