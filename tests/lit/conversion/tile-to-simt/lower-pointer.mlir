// convert-tile-to-simt on pointer-tile loads and stores: each element a thread holds is one scalar global
// access under its mask (a masked-off load yields the padding); stores come from the element's owner only.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// The PTX assembles for sm_90.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: ld.global.b32
// PTX: st.global.b32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @scale(
    // CHECK-SAME: !simt.ptr<f32, 1 : i64>, %{{.*}}: !simt.ptr<f32, 1 : i64>
    // CHECK: scf.if
    // CHECK: "simt.ptr_offset"
    // CHECK: "simt.ptr_load"
    // CHECK: scf.yield
    // CHECK: } else {
    // CHECK: scf.yield %{{.*}} : f32
    // CHECK: "simt.ptr_offset"
    // CHECK: "simt.ptr_store"
    // CHECK-NOT: tile.
    gpu.func @scale(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>, %n: i64) kernel attributes {tile.warps = 4 : i32} {
      %iota = "tile.iota"() : () -> tensor<128xi64>
      %nt = "tile.splat"(%n) : (i64) -> tensor<128xi64>
      %m = arith.cmpi slt, %iota, %nt : tensor<128xi64>
      %pad = arith.constant -1.0 : f32
      %t = "tile.load_ptr"(%in, %iota, %m, %pad) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, f32) -> tensor<128xf32>
      %two = arith.constant dense<2.0> : tensor<128xf32>
      %s = arith.mulf %t, %two : tensor<128xf32>
      "tile.store_ptr"(%out, %iota, %s, %m) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xf32>, tensor<128xi1>) -> ()
      gpu.return
    }
  }
}
