// expect: 6:9: a struct pattern is not supported in device code
#[derive(Clone, Copy)]
struct P { x: f32, y: f32 }
#[kernel]
pub fn k(p: P) {
    let P { x, y } = p;
}
