// vecadd: c[i] = a[i] + b[i], one thread per element, written directly in upstream gpu/llvm/arith/scf.
// Compile it:  oxide build examples/vecadd.mlir -o vecadd.ptx
// The kernel parameters are global pointers (!llvm.ptr<1>) and the element count, which is how oxide's
// slices lower: each becomes a plain `.param .u64 .ptr .global` entry in PTX.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecadd(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %n: i64) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %i64 = arith.index_cast %i : index to i64
      %in_bounds = arith.cmpi ult, %i64, %n : i64
      scf.if %in_bounds {
        %pa = llvm.getelementptr %a[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %pb = llvm.getelementptr %b[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %pc = llvm.getelementptr %c[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %x = llvm.load %pa : !llvm.ptr<1> -> f32
        %y = llvm.load %pb : !llvm.ptr<1> -> f32
        %z = arith.addf %x, %y : f32
        llvm.store %z, %pc : f32, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
