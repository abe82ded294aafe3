// REQUIRES: ptxas
// Every Rust example's PTX assembles for sm_90.
// RUN: %oxide-opt %examples/rust/vecadd.rs --emit=ptx -o %t.1.ptx && ptxas -arch=sm_90 %t.1.ptx -o %t.1.cubin
// RUN: %oxide-opt %examples/rust/saxpy.rs --emit=ptx -o %t.2.ptx && ptxas -arch=sm_90 %t.2.ptx -o %t.2.cubin
// RUN: %oxide-opt %examples/rust/scale_generic.rs --instantiate scale=f32 --instantiate scale=f64 --instantiate scale=i32 --emit=ptx -o %t.3.ptx && ptxas -arch=sm_90 %t.3.ptx -o %t.3.cubin
// RUN: %oxide-opt %examples/rust/sgemm_naive.rs --instantiate sgemm_naive=64 --emit=ptx -o %t.4.ptx && ptxas -arch=sm_90 %t.4.ptx -o %t.4.cubin
// RUN: %oxide-opt %examples/rust/sgemm_tiled.rs --instantiate sgemm_tiled=64 --emit=ptx -o %t.5.ptx && ptxas -arch=sm_90 %t.5.ptx -o %t.5.cubin
// RUN: %oxide-opt %examples/rust/block_reduce.rs --emit=ptx -o %t.6.ptx && ptxas -arch=sm_90 %t.6.ptx -o %t.6.cubin
// RUN: %oxide-opt %examples/rust/warp_reduce.rs --emit=ptx -o %t.7.ptx && ptxas -arch=sm_90 %t.7.ptx -o %t.7.cubin
// RUN: %oxide-opt %examples/rust/histogram.rs --emit=ptx -o %t.8.ptx && ptxas -arch=sm_90 %t.8.ptx -o %t.8.cubin
// RUN: %oxide-opt %examples/rust/stencil.rs --emit=ptx -o %t.9.ptx && ptxas -arch=sm_90 %t.9.ptx -o %t.9.cubin
// RUN: %oxide-opt %examples/rust/transpose.rs --emit=ptx -o %t.10.ptx && ptxas -arch=sm_90 %t.10.ptx -o %t.10.cubin
// RUN: %oxide-opt %examples/rust/printf.rs --emit=ptx -o %t.11.ptx && ptxas -arch=sm_90 %t.11.ptx -o %t.11.cubin
// RUN: %oxide-opt %examples/rust/particles.rs --emit=ptx -o %t.12.ptx && ptxas -arch=sm_90 %t.12.ptx -o %t.12.cubin
