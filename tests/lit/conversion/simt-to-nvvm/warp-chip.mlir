// redux.sync needs sm_80 and elect.sync sm_90: an older target is a located error at the op.
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_75 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: %oxide-opt %s --emit=ptx --chip=sm_90a | FileCheck %s --check-prefix=SM90

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reduce(%m: i32, %a: i32, %out: !llvm.ptr<1>) kernel {
      // SM75: warp-chip.mlir:[[# @LINE + 3]]:14: error: redux.sync needs sm_80 or newer, but the target is sm_75; reduce across the warp with shuffles (simt.shuffle kind "xor") instead
      // SM80-NOT: redux.sync needs
      // SM90: redux.sync.add.s32
      %sum = "simt.redux"(%m, %a) {kind = "add"} : (i32, i32) -> i32
      llvm.store %sum, %out : i32, !llvm.ptr<1>
      gpu.return
    }

    gpu.func @leader(%m: i32, %out: !llvm.ptr<1>) kernel {
      // SM75: warp-chip.mlir:[[# @LINE + 3]]:25: error: elect.sync needs sm_90 or newer, but the target is sm_75
      // SM80: warp-chip.mlir:[[# @LINE + 2]]:25: error: elect.sync needs sm_90 or newer, but the target is sm_80; pick the lowest lane of the mask (count trailing zeros) instead
      // SM90: elect.sync
      %lane, %elected = "simt.elect"(%m) : (i32) -> (i32, i1)
      llvm.store %lane, %out : i32, !llvm.ptr<1>
      gpu.return
    }
  }
}
