// `*o = 2f32;` is valid Rust (an integer literal with a float suffix): it stores 2.0, and ptxas accepts it.
// RUN: %oxide-opt %S/Inputs/float_suffix_on_integer_literal.rs --emit=ptx > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o /dev/null
// 0x40000000 is 2.0f
// CHECK: st.global.b32 {{.*}}, 1073741824;
