// expect: 6:25: struct update syntax (`..base`) is not supported in device code
#[derive(Clone, Copy)]
struct P { x: f32, y: f32 }
#[kernel]
pub fn k(p: P) {
    let q = P { x: 1.0, ..p };
}
