// The tile examples through oxide-opt: a `#[cutile::module]` source goes to the tile frontend, and the full
// pipeline gives PTX that ptxas assembles.
// RUN: %oxide-opt %examples/tile/vecadd.rs --instantiate 'add=[1024]' | FileCheck %s --check-prefix=TILE
// RUN: %oxide-opt %examples/tile/softmax.rs --instantiate softmax=4,1024 --pass-pipeline='builtin.module(tile-to-simt)' | FileCheck %s --check-prefix=SIMT
// RUN: %oxide-opt %examples/tile/gemm.rs --instantiate gemm=128,128,32 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: %oxide-opt %examples/tile/gemm.rs --instantiate gemm=128,128,32 --emit=ptx > %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: %oxide-opt %examples/tile/softmax.rs --instantiate softmax=4,1024 | FileCheck %s --check-prefix=SMTILE
// RUN: %oxide-opt %examples/tile/gemm.rs --instantiate gemm=128,128,64 | FileCheck %s --check-prefix=GEMMTILE
// RUN: %oxide-opt %examples/tile/layernorm.rs --instantiate layernorm=4,1024 | FileCheck %s --check-prefix=LN
// RUN: %oxide-opt %examples/tile/rmsnorm.rs --instantiate rmsnorm=4,1024 | FileCheck %s --check-prefix=RMS
// RUN: %oxide-opt %examples/tile/vecadd.rs --instantiate 'add=[1024]' --emit=ptx > %t.vecadd.ptx
// RUN: %oxide-opt %examples/tile/softmax.rs --instantiate softmax=4,1024 --emit=ptx > %t.softmax.ptx
// RUN: %oxide-opt %examples/tile/layernorm.rs --instantiate layernorm=4,1024 --emit=ptx > %t.layernorm.ptx
// RUN: %oxide-opt %examples/tile/rmsnorm.rs --instantiate rmsnorm=4,1024 --emit=ptx > %t.rmsnorm.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.vecadd.ptx -o %t.1.cubin %}
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.softmax.ptx -o %t.2.cubin %}
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.layernorm.ptx -o %t.3.cubin %}
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.rmsnorm.ptx -o %t.4.cubin %}
// RUN: %oxide-opt %examples/tile/histogram.rs | FileCheck %s --check-prefix=HIST
// RUN: %oxide-opt %examples/tile/histogram.rs --emit=ptx > %t.histogram.ptx
// RUN: FileCheck %s --check-prefix=HISTPTX < %t.histogram.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.histogram.ptx -o %t.5.cubin %}

// TILE: gpu.func @add_1024(%{{.*}}: !tile.view_mut<f32, array<i64: 1024>>, %{{.*}}: !tile.view<f32, array<i64: -1>>
// TILE-SAME: tile.warps = 4 : i32
// TILE: "tile.load"
// TILE: arith.addf {{.*}} : tensor<1024xf32>
// TILE: "tile.store_own"

// SIMT: gpu.func @softmax_4_1024(%arg0: !simt.ptr<f32, 1 : i64> {llvm.noalias}, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64,
// SIMT: "simt.shuffle"
// SIMT-NOT: "tile.

// PTX: .visible .entry gemm_128_128_32(
// PTX: ldmatrix.sync.aligned
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// LN: gpu.func @layernorm_4_1024(
// LN: "tile.reduce"{{.*}}kind = "sum"
// LN: math.rsqrt {{.*}} : tensor<4xf32>
// LN: "tile.store_own"

// RMS: gpu.func @rmsnorm_4_1024(
// RMS: arith.mulf {{.*}} : tensor<4x1024xf32>
// RMS: "tile.reduce"{{.*}}kind = "sum"
// RMS: "tile.store_own"

// HIST: gpu.func @histogram(%{{.*}}: !tile.ptr<i32>, %{{.*}}: !tile.view<i32, array<i64: -1>>, %{{.*}}: i32)
// HIST: "tile.atomic_rmw"{{.*}}{kind = "add"}

// HISTPTX: .visible .entry histogram(
// HISTPTX: atom.relaxed.gpu.global.add.u32

// SMTILE: gpu.func @softmax_4_1024(%{{.*}}: !tile.view_mut<f32, array<i64: 4, 1024>>, %{{.*}}: !tile.view<f32, array<i64: -1, -1>>)
// SMTILE: "tile.load"{{.*}} -> tensor<4x1024xf32>
// SMTILE: arith.select
// SMTILE: "tile.reduce"{{.*}}kind = "max"{{.*}} -> tensor<4xf32>
// SMTILE: "tile.broadcast"{{.*}} -> tensor<4x1024xf32>
// SMTILE: math.exp {{.*}} : tensor<4x1024xf32>
// SMTILE: "tile.reduce"{{.*}}kind = "sum"
// SMTILE: arith.divf {{.*}} : tensor<4x1024xf32>
// SMTILE: "tile.store_own"

// GEMMTILE: gpu.func @gemm_128_128_64(%{{.*}}: !tile.view_mut<f32, array<i64: 128, 128>>, %{{.*}}: !tile.view<bf16, array<i64: -1, -1>>
// GEMMTILE: arith.constant dense<0.000000e+00> : tensor<128x128xf32>
// GEMMTILE: scf.for {{.*}} -> (tensor<128x128xf32>)
// GEMMTILE: "tile.load"{{.*}} -> tensor<128x64xbf16>
// GEMMTILE: "tile.load"{{.*}} -> tensor<64x128xbf16>
// GEMMTILE: "tile.mma"{{.*}} : (tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
// GEMMTILE: scf.yield
// GEMMTILE: "tile.store_own"
