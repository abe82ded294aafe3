// expect: 4:20: a slice of `Shape` elements is not supported in device code
enum Shape { Circle(f32), Square(f32) }
#[kernel]
pub fn k(shapes: &[Shape]) {
    let s = Shape::Circle(1.0);
}
