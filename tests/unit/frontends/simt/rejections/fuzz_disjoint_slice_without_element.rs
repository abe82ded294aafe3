// expect: 3:28: `DisjointSlice` expects at least 1 generic argument, got 0
#[kernel]
 fn vecadd(a: &[f32], b: &[DisjointSlice],  c: DisjointSlice<f32>) {
}
