// Named pipelines expand inside pipeline text, with options.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(simt-to-ptx{chip=sm_80})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='simt-to-llvm' | FileCheck %s --check-prefix=LLVM
// RUN: not %oxide-opt %s --pass-pipeline='simt-to-ptx{chip=sm_90 colour=red}' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not %oxide-opt %s --pass-pipeline='gpu.module(simt-to-ptx)' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not %oxide-opt %s --pass-pipeline='simt-to-ptx{chip=sm_13}' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: %oxide-opt --list-passes | FileCheck %s --check-prefix=LIST

// CHECK: gpu.binary @k
// CHECK-SAME: chip = "sm_80"
// CHECK-SAME: .target sm_80
// LLVM: llvm.func @copy(%{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}
// LLVM: llvm.load {{.*}} invariant
// OPTION: <pass-pipeline>:1:24: error: 'simt-to-ptx' has no option 'colour' (its options: chip, opt-level)
// NESTED: <pass-pipeline>:1:12: error: pipeline 'simt-to-ptx' runs on builtin.module and cannot be nested under 'gpu.module'
// CHIP: error: unknown GPU architecture 'sm_13'
// LIST-DAG: convert-simt-to-nvvm
// LIST-DAG: oxide-attach-target
// LIST-DAG: simt-to-ptx

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%src: !simt.slice<f32>, %dst: !simt.slice_mut<f32>, %i: index) kernel {
      %x = "simt.load"(%src, %i) : (!simt.slice<f32>, index) -> f32
      "simt.store"(%dst, %i, %x) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
  }
}
