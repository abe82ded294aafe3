// expect: 4:9: `[f32; 2147483647]` takes 8,589,934,588 bytes, and a thread's local memory holds at most 524,288
#[kernel]
fn k(out: DisjointSlice<f32>) {
let a = [0.0f32; 2147483647];
}
