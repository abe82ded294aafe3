// expect: 4:5: an enum variant with named fields is not supported in device code
#[derive(Clone, Copy)]
enum Shape {
    Rect { w: f32, h: f32 },
    Empty,
}
#[kernel]
pub fn k(n: u32) {
    let s = Shape::Empty;
}
