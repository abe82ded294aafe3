// Static shared arrays become .shared globals, one per simt.shared_array; dynamic shared memory is one
// .extern .shared array with the largest requested alignment.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK: .extern .shared .align 16 .b8 __oxide_dynamic_shared[];
    // CHECK-LABEL: .entry stage(
    // A shared array used by one kernel is declared inside it ("demoted" by LLVM).
    // CHECK-DAG: .shared .align 16 .b8 __oxide_shared_{{[0-9]+}}[1024];
    // CHECK-DAG: .shared .align 8 .b8 __oxide_shared_{{[0-9]+}}[256];
    // CHECK: st.shared.b32
    // CHECK: ld.shared.b32
    gpu.func @stage(%src: !simt.slice<f32>, %dst: !simt.slice_mut<f32>, %i: index, %j: index) kernel {
      %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 256 : i64>
      %t = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<i64, 32 : i64>
      %x = "simt.load"(%src, %i) : (!simt.slice<f32>, index) -> f32
      "simt.shared_store"(%s, %i, %x) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
      %y = "simt.shared_load"(%s, %j) : (!simt.shared<f32, 256 : i64>, index) -> f32
      "simt.store"(%dst, %i, %y) : (!simt.slice_mut<f32>, index, f32) -> ()
      %c = arith.constant 7 : i64
      "simt.shared_store"(%t, %i, %c) : (!simt.shared<i64, 32 : i64>, index, i64) -> ()
      %z = "simt.shared_load"(%t, %j) : (!simt.shared<i64, 32 : i64>, index) -> i64
      %zf = arith.sitofp %z : i64 to f32
      "simt.store"(%dst, %j, %zf) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }

    // CHECK-LABEL: .entry dynamic(
    // CHECK: st.shared.b32
    gpu.func @dynamic(%i: index, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %a = "simt.dynamic_shared"(%c0) {align = 4 : i64} : (index) -> !simt.ptr<f32, 3>
      %b = "simt.dynamic_shared"(%c64) {align = 16 : i64} : (index) -> !simt.ptr<f32, 3>
      %q = "simt.ptr_offset"(%b, %i) : (!simt.ptr<f32, 3>, index) -> !simt.ptr<f32, 3>
      "simt.ptr_store"(%q, %v) : (!simt.ptr<f32, 3>, f32) -> ()
      gpu.return
    }
  }
}
