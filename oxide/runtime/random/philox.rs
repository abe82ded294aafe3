// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3", SC 2011), the
// counter-based generator behind oxide.tile.rand / randn. Element i of a stream is word i % 4 of the block
// Philox4x32-10(counter = (i / 4 low 32 bits, i / 4 high 32 bits, 0, 0), key = (seed low, seed high)).
// oxide/runtime/random/philox.py computes the same stream on the host with numpy; the artifact next to this
// file is this source compiled by oxide (python -m oxide.tools.random_kernels), and a test checks it is current.
use cuda_device::{device, kernel, launch_contract, thread, DisjointSlice};

#[device]
fn mul_hi(a: u32, b: u32) -> u32 {
    (((a as u64) * (b as u64)) >> 32) as u32
}

// Word `word` (0..4) of Philox4x32-10 of `block` under the key (k0, k1).
#[device]
fn philox_word(block: u64, k0: u32, k1: u32, word: u32) -> u32 {
    let mut c0: u32 = block as u32;
    let mut c1: u32 = (block >> 32) as u32;
    let mut c2: u32 = 0;
    let mut c3: u32 = 0;
    let mut key0: u32 = k0;
    let mut key1: u32 = k1;
    for round in 0..10 {
        if round > 0 {
            key0 = key0.wrapping_add(0x9E3779B9);
            key1 = key1.wrapping_add(0xBB67AE85);
        }
        let hi0 = mul_hi(0xD2511F53, c0);
        let lo0 = c0.wrapping_mul(0xD2511F53);
        let hi1 = mul_hi(0xCD9E8D57, c2);
        let lo1 = c2.wrapping_mul(0xCD9E8D57);
        let n0 = hi1 ^ c1 ^ key0;
        let n2 = hi0 ^ c3 ^ key1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
    }
    if word == 0 {
        c0
    } else if word == 1 {
        c1
    } else if word == 2 {
        c2
    } else {
        c3
    }
}

// A 32-bit word as an f32 in [0, 1): its top 24 bits times 2^-24 (exact).
#[device]
fn unit(bits: u32) -> f32 {
    ((bits >> 8) as f32) * 5.9604645e-8
}

#[kernel]
#[launch_contract(domain = 1)]
pub fn philox_uniform(seed_lo: u32, seed_hi: u32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u64;
    if let Some(o) = out.get_mut(idx) {
        *o = unit(philox_word(i >> 2, seed_lo, seed_hi, (i & 3) as u32));
    }
}

// Box-Muller on the word pairs (0, 1) and (2, 3) of a block: u1 in (0, 1] from the even word, u2 in [0, 1)
// from the odd one; the even element is r cos(2 pi u2), the odd one r sin(2 pi u2), r = sqrt(-2 ln u1).
#[kernel]
#[launch_contract(domain = 1)]
pub fn philox_normal(seed_lo: u32, seed_hi: u32, mean: f32, std: f32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u64;
    let word = (i & 3) as u32;
    let even = word & 2;
    let u1 = unit(philox_word(i >> 2, seed_lo, seed_hi, even)) + 5.9604645e-8;
    let u2 = unit(philox_word(i >> 2, seed_lo, seed_hi, even + 1));
    let r = (-2.0f32 * u1.ln()).sqrt();
    let theta = 6.2831855f32 * u2;
    let z = if (word & 1) == 0 { r * theta.cos() } else { r * theta.sin() };
    if let Some(o) = out.get_mut(idx) {
        *o = mean + std * z;
    }
}
