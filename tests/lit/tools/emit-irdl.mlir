// REQUIRES: mlir-opt
// `oxide-opt --emit-irdl` writes oxide's dialects as IRDL that upstream mlir-opt loads: other MLIR tools
// can parse and verify simt IR without oxide (IRDL constraints only; Python verifiers need oxide-opt).
// RUN: %oxide-opt --emit-irdl -o %t.irdl
// RUN: %mlir-opt --irdl-file=%t.irdl %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=IRDL < %t.irdl
// RUN: not %mlir-opt --irdl-file=%t.irdl %S/Inputs/bad-load.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// IRDL: irdl.dialect @simt {
// IRDL: irdl.type @slice {
// IRDL: irdl.operation @load {
// IRDL: irdl.parametric @simt::@slice<
// BAD: error: expected 'f32' but got 'i32'

// CHECK: "simt.load"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> f32
func.func @f(%a: !simt.slice<f32>, %i: index) -> f32 {
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
  return %x : f32
}
