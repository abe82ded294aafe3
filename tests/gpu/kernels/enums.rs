// Fieldless enums in GPU buffers, laid out as rustc lays them out: `Kind` (no repr) is a u8, `Step`
// (#[repr(i8)]) an i8, `Temp` (#[repr(i16)]) an i16, so `P` is 8 bytes (kind at 0, t at 2, x at 4).
use cuda_device::{kernel, thread, DisjointSlice};

#[derive(Clone, Copy, PartialEq, PartialOrd)]
pub enum Kind { A, B, C }

#[repr(i8)]
#[derive(Clone, Copy)]
pub enum Step { Back = -1, Stay = 0, Ahead = 1 }

#[repr(i16)]
#[derive(Clone, Copy)]
pub enum Temp { Cold = -5, Warm = 3 }

#[repr(C)]
#[derive(Clone, Copy)]
pub struct P { kind: Kind, t: Temp, x: f32 }

#[kernel]
pub fn classify(kinds: &[Kind], steps: &[Step], mut out: DisjointSlice<i32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let rank = match kinds[i] { Kind::A => 10, Kind::B => 20, Kind::C => 30 };
        let later = if kinds[i] > Kind::A { 1000 } else { 0 };
        *o = rank + later + steps[i] as i32;
    }
}

#[kernel]
pub fn score(ps: &[P], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let p = ps[i];
        *o = p.x + if p.kind == Kind::B { 100.0 } else { 0.0 } + p.t as i32 as f32;
    }
}
