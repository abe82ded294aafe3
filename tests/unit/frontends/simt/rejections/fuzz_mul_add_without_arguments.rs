// expect: 3:5: `mul_add` expects 2 arguments, got 0
fn axpy(a: f32, x: f32, y: f32) -> f32 {
    a.mul_add( )
}
#[kernel]
 fn saxpy(a: f32, x: &[f32], y: &[f32],  out: DisjointSlice<f32>) {
    let idx = index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = axpy(a, x[i], y[i])
    }
}
