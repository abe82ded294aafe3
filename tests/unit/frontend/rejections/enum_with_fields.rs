// expect: 2:14: enum variant with fields is not supported in device code
enum Shape { Circle(f32), Square(f32) }
#[kernel]
pub fn k(a: f32) {
    let s = Shape::Circle(a);
}
