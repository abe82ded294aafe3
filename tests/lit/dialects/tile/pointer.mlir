// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify)' | FileCheck %s

// Pointer-tile loads and stores (`load_ptr_tko` / `store_ptr_tko`) parse and verify.
// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %off: tensor<128xi64>, %m: tensor<128xi1>) {
  %pad = arith.constant 0.0 : f32
  // CHECK: "tile.load_ptr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, f32) -> tensor<128xf32>
  %t = "tile.load_ptr"(%p, %off, %m, %pad) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, f32) -> tensor<128xf32>
  // CHECK: "tile.store_ptr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xf32>, tensor<128xi1>) -> ()
  "tile.store_ptr"(%q, %off, %t, %m) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}
