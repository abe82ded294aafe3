// expect: 3:14: an enum variant with fields is not supported in device code
#[derive(Clone, Copy)]
enum Shape { Circle(f32), Square(f32) }
#[kernel]
pub fn k(a: f32) {
    let s: Shape = Shape::Circle(a);
}
