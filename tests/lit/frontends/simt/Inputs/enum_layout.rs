use cuda_device::{kernel, thread, DisjointSlice};

#[derive(Clone, Copy, PartialEq)]
pub enum Kind { A, B, C }

#[repr(i16)]
#[derive(Clone, Copy)]
pub enum Temp { Cold = -5, Warm = 3 }

#[repr(C)]
#[derive(Clone, Copy)]
pub struct P { kind: Kind, t: Temp, x: f32 }

#[kernel]
pub fn score(ps: &[P], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let p = ps[i];
        *o = p.x + if p.kind == Kind::B { 100.0 } else { 0.0 } + p.t as i32 as f32;
    }
}
