// Debugging: simt.assert becomes CUDA's __assertfail (through cf.assert), simt.trap is `trap;`, upstream
// gpu.printf is a vprintf call, and the clocks are special registers.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline="builtin.module(convert-simt-to-nvvm)" | FileCheck %s --check-prefix=IR

// CHECK-DAG: .extern .func __assertfail
// CHECK-DAG: .extern .func  (.param .b32 func_retval0) vprintf
// The message and the source file travel as C strings ("x must be positive\0", "debug.mlir\0").
// CHECK-DAG: .global .align 1 .b8 assert_message_0[19] = {120, 32, 109, 117, 115, 116, 32, 98, 101, 32, 112, 111, 115, 105, 116, 105, 118, 101};
// CHECK-DAG: .global .align 1 .b8 assert_file_0[{{[0-9]+}}] = {{{.*}}100, 101, 98, 117, 103, 46, 109, 108, 105, 114};
// "x=%f n=%lld\n\0"
// CHECK-DAG: .global .align 1 .b8 printfFormat_0[13] = {120, 61, 37, 102, 32, 110, 61, 37, 108, 108, 100, 10};

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry checked(
    gpu.func @checked(%xs: !simt.slice<f32>) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %x = "simt.load_unchecked"(%xs, %i) : (!simt.slice<f32>, index) -> f32
      %zero = arith.constant 0.0 : f32
      %pos = arith.cmpf ogt, %x, %zero : f32
      // IR: cf.assert %{{.*}}, "x must be positive"
      // CHECK: call.uni __assertfail, (param0, param1, param2, param3, param4);
      "simt.assert"(%pos) {message = "x must be positive"} : (i1) -> ()
      gpu.return
    }

    // CHECK-LABEL: .entry trap(
    gpu.func @trap() kernel {
      // IR: llvm.intr.trap
      // CHECK: trap;
      "simt.trap"() : () -> ()
      gpu.return
    }

    // f32 arguments reach vprintf as doubles; an i64 is %lld.
    // CHECK-LABEL: .entry print(
    gpu.func @print(%x: f32, %n: i64) kernel {
      // CHECK: cvt.f64.f32
      // CHECK: call.uni (retval0), vprintf, (param0, param1);
      gpu.printf "x=%f n=%lld\n", %x, %n : f32, i64
      gpu.return
    }

    // CHECK-LABEL: .entry clocks(
    gpu.func @clocks(%out: !llvm.ptr<1>) kernel {
      // CHECK-DAG: mov.u32 %r{{[0-9]+}}, %clock;
      // CHECK-DAG: mov.u64 %rd{{[0-9]+}}, %clock64;
      // CHECK-DAG: mov.u64 %rd{{[0-9]+}}, %globaltimer;
      %c = "simt.special_reg"() {reg = "clock"} : () -> i32
      %c64 = "simt.special_reg"() {reg = "clock64"} : () -> i64
      %g = "simt.special_reg"() {reg = "globaltimer"} : () -> i64
      %c_wide = arith.extui %c : i32 to i64
      %sum = arith.addi %c64, %g : i64
      %all = arith.addi %sum, %c_wide : i64
      llvm.store %all, %out : i64, !llvm.ptr<1>
      gpu.return
    }
  }
}
