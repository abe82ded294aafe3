// expect: 5:23: invalid suffix `u32` for float literal; valid suffixes are `
#[kernel]
 fn hello(scale: f32) {
    if t == 0 {
        (  (), scale, 1e308u32)
    }
}
