// out[i] = exp(in[i]) * sin(in[i]): math.exp/math.sin lower to libdevice calls (__nv_expf, __nv_sinf).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exp_sin(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) kernel {
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i64
      %pi = llvm.getelementptr %in[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %po = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %x = llvm.load %pi : !llvm.ptr<1> -> f32
      %e = math.exp %x : f32
      %s = math.sin %x : f32
      %y = arith.mulf %e, %s : f32
      llvm.store %y, %po : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}
