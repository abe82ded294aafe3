// expect: 5:13: dereferencing a raw pointer is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(x: &[f32]) {
    let p = x.as_ptr();
    let v = *p;
}
