// Fieldless enums are their discriminant in rustc's integer: `Kind` (3 variants, no repr) a u8, `Temp`
// (#[repr(i16)]) an i16, so `P` is rustc's 8 bytes (kind at 0, t at 2, x at 4), the compare of `p.kind` is
// an i8 compare, and `p.t as i32` sign-extends.
// RUN: %oxide-opt %S/Inputs/enum_layout.rs | FileCheck %s
// RUN: %oxide-opt %S/Inputs/enum_layout.rs --emit=ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// CHECK: gpu.func @score(%{{.*}}: !simt.slice<!llvm.struct<(i8, i16, f32)>>
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i8
// CHECK: arith.extsi %{{.*}} : i16 to i32
// PTX-DAG: ld.global.nc.b8 {{.*}}[[P:%rd[0-9]+]]]
// PTX-DAG: ld.global.nc.b16 {{.*}}[[P]]+2]
// PTX-DAG: ld.global.nc.b32 {{.*}}[[P]]+4]
