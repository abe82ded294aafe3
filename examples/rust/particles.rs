// A Copy struct with impl methods: advance particles by their velocity, one thread each.
use cuda_device::{kernel, thread, DisjointSlice};

#[derive(Clone, Copy)]
pub struct Vec2 {
    x: f32,
    y: f32,
}

impl Vec2 {
    fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }

    fn add_scaled(self, other: Vec2, s: f32) -> Vec2 {
        Vec2::new(self.x + other.x * s, self.y + other.y * s)
    }

    fn length(self) -> f32 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

#[kernel]
pub fn advance(xs: &[f32], ys: &[f32], velocity: Vec2, dt: f32, mut dist: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(d) = dist.get_mut(idx) {
        let p = Vec2::new(xs[i], ys[i]).add_scaled(velocity, dt);
        *d = p.length();
    }
}
