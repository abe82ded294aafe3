// REQUIRES: ptxas
// The PTX of the mma lowering tests assembles for sm_90 (and the tile-to-ptx named pipeline gives the same
// instructions): the GEMM's K loop is ldmatrix with immediate offsets from one base register per operand,
// then mma.sync. The synchronous staging is checked on sm_90a (which keeps it for BK = 32), the cp.async
// pipeline on sm_80 and sm_86.
// RUN: %oxide-opt %S/mma-gemm.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' --emit=ptx --chip sm_90a -o %t.gemm.ptx
// RUN: ptxas -arch=sm_90a %t.gemm.ptx -o %t.gemm.cubin
// RUN: FileCheck %s < %t.gemm.ptx
// RUN: %oxide-opt %S/mma-pipeline.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' --emit=ptx --chip sm_80 -o %t.sm80.ptx
// RUN: ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// RUN: FileCheck %s --check-prefix=ASYNC < %t.sm80.ptx
// RUN: %oxide-opt %S/mma-pipeline.mlir --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_86})' --emit=ptx --chip sm_86 -o %t.sm86.ptx
// RUN: ptxas -arch=sm_86 %t.sm86.ptx -o %t.sm86.cubin
// RUN: FileCheck %s --check-prefix=ASYNC < %t.sm86.ptx
// RUN: %oxide-opt %S/mma-types.mlir --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.types.ptx
// RUN: ptxas -arch=sm_90 %t.types.ptx -o %t.types.cubin
// RUN: FileCheck %s --check-prefix=TYPES < %t.types.ptx
// RUN: %oxide-opt %S/mma-gemm.mlir --pass-pipeline='builtin.module(tile-to-ptx)' | FileCheck %s --check-prefix=PIPELINE

// CHECK-LABEL: .entry gemm(
// CHECK: bar.sync
// CHECK: st.shared.v{{[24]}}.b{{16|32}}
// CHECK: bar.sync
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{.*}}, {{\[}}[[A:%rd[0-9]+]]{{\]}};
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{.*}}, {{\[}}[[A]]+1280{{\]}};
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{.*}}, {{\[}}[[B:%rd[0-9]+]]{{\]}};
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{.*}}, {{\[}}[[B]]+32{{\]}};
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// LLVM lays the K loop's header (wait_group, barrier) out after its body, so the loop's order is not checked.
// ASYNC-LABEL: .entry gemm(
// ASYNC: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// ASYNC: cp.async.commit_group;
// ASYNC-DAG: cp.async.wait_group
// ASYNC-DAG: bar.sync
// ASYNC-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ASYNC-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// TYPES-LABEL: .entry f16_f32(
// TYPES: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// TYPES-LABEL: .entry f16_f16(
// TYPES: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// TYPES-LABEL: .entry tf32(
// TYPES: cvt.rna.tf32.f32
// TYPES: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

// PIPELINE: gpu.binary @kernels
// PIPELINE-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
