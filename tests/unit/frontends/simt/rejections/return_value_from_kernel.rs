// expect: 4:5: mismatched types: this function returns `()`, not `f32`
#[kernel]
pub fn k(x: f32) {
    return x;
}
