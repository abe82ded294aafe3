// expect: 4:5: a `static mut` of type `u32` is not supported in device code
#[kernel]
pub fn k(a: f32) {
    static mut COUNT: u32 = 0;
}
