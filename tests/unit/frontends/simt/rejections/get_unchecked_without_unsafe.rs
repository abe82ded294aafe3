// expect: 4:13: `get_unchecked` is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(x: &[f32]) {
    let v = x.get_unchecked(0);
}
