// Flash attention forward: out = softmax(q k^T / sqrt(D)) v for bf16 q, k, v of shape (batch, heads, seq, D),
// the softmax computed online in f32. Each tile block owns BM query rows of one (batch, head) and walks the
// keys and values BN rows at a time: S = Q K^T on Tensor Cores, a running row maximum m and row sum l, the
// accumulator rescaled by exp2(m_old - m_new) when the maximum grows, then O += P V with P in bf16. The scale
// is folded into the exponent: exp(x / sqrt(D)) = exp2(x * scale_log2) with scale_log2 = log2(e) / sqrt(D).
// m is kept in scaled units, and since scale_log2 > 0 the maximum of the scaled scores is the scaled maximum of
// the raw ones, so each score costs one fma, s * scale_log2 - m, before its exp2; `ftz::Enabled` makes each
// exp2 one `ex2.approx.ftz` instruction (a probability below 2^-126 becomes 0 beside a row sum of at least 1).
// The output divides by l once per row (a reciprocal, then one multiply per element). Keys past the sequence
// (a partial last block) are masked to -inf; the causal kernel also masks keys after the query and stops at
// the diagonal block.
#[cutile::module]
pub mod attention {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 8)))]
    pub fn attention<const BM: i32, const BN: i32, const D: i32>(
        out: &mut Tensor<bf16, {[1, BM, D]}>,
        q: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        k: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        v: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        scale_log2: f32,
    ) {
        let (bh, qm, _) = get_tile_block_id();
        let heads = q.shape()[1];
        let (b, h) = (bh / heads, bh % heads);
        let n = k.shape()[2];
        let tq = q.partition(const_shape![1, 1, BM, D]).load([b, h, qm, 0i32]).reshape(const_shape![BM, D]);
        let pk = k.partition(const_shape![1, 1, BN, D]);
        let pv = v.partition(const_shape![1, 1, BN, D]);
        let scale: Tile<f32, {[BM, BN]}> = scale_log2.broadcast(const_shape![BM, BN]);
        let row_scale: Tile<f32, {[BM, 1]}> = scale_log2.broadcast(const_shape![BM, 1]);
        let minus_inf: Tile<f32, {[BM, BN]}> = constant(f32::NEG_INFINITY, const_shape![BM, BN]);
        let mut m_i: Tile<f32, {[BM, 1]}> = constant(f32::NEG_INFINITY, const_shape![BM, 1]);
        let mut l_i: Tile<f32, {[BM, 1]}> = constant(0.0f32, const_shape![BM, 1]);
        let mut acc: Tile<f32, {[BM, D]}> = constant(0.0f32, const_shape![BM, D]);
        for j in 0i32..ceil_div(n, BN) {
            let tk = pk.load([b, h, j, 0i32]).reshape(const_shape![BN, D]);
            let s = mma(tq, tk.transpose(), constant(0.0f32, const_shape![BM, BN]));
            let s = select(keys_inside::<BM, BN>(j * BN, n), s, minus_inf);
            let m_new = max_tile(m_i, reduce_max(s, 1).reshape(const_shape![BM, 1]) * row_scale);
            let p = exp2(fma(s, scale, -m_new.broadcast(const_shape![BM, BN])), ftz::Enabled);
            let alpha = exp2(m_i - m_new, ftz::Enabled);
            l_i = l_i * alpha + reduce_sum(p, 1).reshape(const_shape![BM, 1]);
            let tv = pv.load([b, h, j, 0i32]).reshape(const_shape![BN, D]);
            acc = mma(convert_tile::<bf16>(p), tv, acc * alpha.broadcast(const_shape![BM, D]));
            m_i = m_new;
        }
        let o = acc * true_div(constant(1.0f32, const_shape![BM, 1]), l_i).broadcast(const_shape![BM, D]);
        out.store(convert_tile::<bf16>(o).reshape(const_shape![1, BM, D]));
    }

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 8)))]
    pub fn attention_causal<const BM: i32, const BN: i32, const D: i32>(
        out: &mut Tensor<bf16, {[1, BM, D]}>,
        q: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        k: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        v: &Tensor<bf16, {[-1, -1, -1, -1]}>,
        scale_log2: f32,
    ) {
        let (bh, qm, _) = get_tile_block_id();
        let heads = q.shape()[1];
        let (b, h) = (bh / heads, bh % heads);
        let n = k.shape()[2];
        let tq = q.partition(const_shape![1, 1, BM, D]).load([b, h, qm, 0i32]).reshape(const_shape![BM, D]);
        let pk = k.partition(const_shape![1, 1, BN, D]);
        let pv = v.partition(const_shape![1, 1, BN, D]);
        let scale: Tile<f32, {[BM, BN]}> = scale_log2.broadcast(const_shape![BM, BN]);
        let row_scale: Tile<f32, {[BM, 1]}> = scale_log2.broadcast(const_shape![BM, 1]);
        let minus_inf: Tile<f32, {[BM, BN]}> = constant(f32::NEG_INFINITY, const_shape![BM, BN]);
        let mut m_i: Tile<f32, {[BM, 1]}> = constant(f32::NEG_INFINITY, const_shape![BM, 1]);
        let mut l_i: Tile<f32, {[BM, 1]}> = constant(0.0f32, const_shape![BM, 1]);
        let mut acc: Tile<f32, {[BM, D]}> = constant(0.0f32, const_shape![BM, D]);
        // Key blocks past the last query row of this block see nothing: stop after the diagonal block.
        let last = min(ceil_div((qm + 1i32) * BM, BN), ceil_div(n, BN));
        for j in 0i32..last {
            let tk = pk.load([b, h, j, 0i32]).reshape(const_shape![BN, D]);
            let s = mma(tq, tk.transpose(), constant(0.0f32, const_shape![BM, BN]));
            let s = select(keys_causal::<BM, BN>(qm * BM, j * BN, n), s, minus_inf);
            let m_new = max_tile(m_i, reduce_max(s, 1).reshape(const_shape![BM, 1]) * row_scale);
            let p = exp2(fma(s, scale, -m_new.broadcast(const_shape![BM, BN])), ftz::Enabled);
            let alpha = exp2(m_i - m_new, ftz::Enabled);
            l_i = l_i * alpha + reduce_sum(p, 1).reshape(const_shape![BM, 1]);
            let tv = pv.load([b, h, j, 0i32]).reshape(const_shape![BN, D]);
            acc = mma(convert_tile::<bf16>(p), tv, acc * alpha.broadcast(const_shape![BM, D]));
            m_i = m_new;
        }
        let o = acc * true_div(constant(1.0f32, const_shape![BM, 1]), l_i).broadcast(const_shape![BM, D]);
        out.store(convert_tile::<bf16>(o).reshape(const_shape![1, BM, D]));
    }

    /// True where key k0 + c (column c) lies inside the sequence of n keys.
    fn keys_inside<const BM: i32, const BN: i32>(k0: i32, n: i32) -> Tile<bool, {[BM, BN]}> {
        let cols = iota::<i32>(const_shape![BN]).reshape(const_shape![1, BN]).broadcast(const_shape![BM, BN]);
        lt_tile(cols, broadcast_scalar(n - k0, const_shape![BM, BN]))
    }

    /// True where key k0 + c is inside the sequence and not after query q0 + r (row r).
    fn keys_causal<const BM: i32, const BN: i32>(q0: i32, k0: i32, n: i32) -> Tile<bool, {[BM, BN]}> {
        let cols = iota::<i32>(const_shape![BN]).reshape(const_shape![1, BN]).broadcast(const_shape![BM, BN]);
        let rows = iota::<i32>(const_shape![BM]).reshape(const_shape![BM, 1]).broadcast(const_shape![BM, BN]);
        let seen = le_tile(cols, rows + broadcast_scalar(q0 - k0, const_shape![BM, BN]));
        seen & lt_tile(cols, broadcast_scalar(n - k0, const_shape![BM, BN]))
    }
}
