// expect: 4:5: the macro `my_macro!` is not supported in device code
#[kernel]
pub fn k(x: f32) {
    my_macro!(x);
}
