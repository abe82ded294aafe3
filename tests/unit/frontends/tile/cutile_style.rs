// Kernels written as cutile-rs users write them (output parameter not first, tuple-typed lets, const-generic
// specialisation, an online-softmax loop carrying three tiles), for test_cutile_style.py.
#[cutile::module]
mod my_module {
    use cutile::core::*;

    #[cutile::entry()]
    fn saxpy<const S: [i32; 2]>(a: f32, x: &Tensor<f32, {[-1, -1]}>, y: &mut Tensor<f32, S>) {
        let tile_a = a.broadcast(y.shape());
        let tile_x = load_tile_like_2d(x, y);
        let tile_y = y.load();
        y.store(tile_a * tile_x + tile_y);
    }

    #[cutile::entry()]
    fn gemm<E: ElementType, const BM: i32, const BN: i32, const BK: i32, const K: i32>(
        z: &mut Tensor<E, {[BM, BN]}>,
        x: &Tensor<E, {[-1, K]}>,
        y: &Tensor<E, {[K, -1]}>,
    ) {
        let part_x = x.partition(const_shape![BM, BK]);
        let part_y = y.partition(const_shape![BK, BN]);
        let pid: (i32, i32, i32) = get_tile_block_id();
        let mut tile_z = load_tile_mut(z);
        for i in 0i32..(K / BK) {
            let tile_x = part_x.load([pid.0, i]);
            let tile_y = part_y.load([i, pid.1]);
            tile_z = mma(tile_x, tile_y, tile_z);
            continue;
        }
        z.store(tile_z);
    }

    #[cutile::entry()]
    fn softmax<const BM: i32, const BN: i32>(x: &Tensor<f32, {[-1, -1]}>, y: &mut Tensor<f32, {[BM, BN]}>) {
        let tile_x: Tile<f32, {[BM, BN]}> = load_tile_like_2d(x, y);
        let tile_x_max: Tile<f32, {[BM]}> = reduce_max(tile_x, 1i32);
        let tile_x_max: Tile<f32, {[BM, BN]}> = tile_x_max.reshape(const_shape![BM, 1]).broadcast(y.shape());
        let num: Tile<f32, {[BM, BN]}> = exp(tile_x - tile_x_max);
        let denom: Tile<f32, {[BM]}> = reduce_sum(num, 1);
        let denom = denom.reshape(const_shape![BM, 1]).broadcast(y.shape());
        y.store(num / denom);
    }

    #[cutile::entry()]
    fn attention_like<const BM: i32, const BN: i32, const D: i32, const CAUSAL: i32>(
        out: &mut Tensor<f32, {[BM, D]}>,
        q: &Tensor<f16, {[-1, D]}>,
        k: &Tensor<f16, {[-1, D]}>,
        v: &Tensor<f16, {[-1, D]}>,
        scale: f32,
    ) {
        let (bm, _, _) = get_tile_block_id();
        let tq = q.partition(const_shape![BM, D]).load([bm, 0i32]);
        let pk = k.partition(const_shape![BN, D]);
        let pv = v.partition(const_shape![BN, D]);
        let mut m_i = constant(f32::NEG_INFINITY, const_shape![BM]);
        let mut l_i = constant(0.0f32, const_shape![BM]);
        let mut acc = constant(0.0f32, const_shape![BM, D]);
        let n_blocks = if CAUSAL == 1i32 { (bm + 1) * BM / BN } else { num_tiles(&pk, 0) };
        for j in 0..n_blocks {
            let tk = pk.load([j, 0i32]);
            let s = mma(tq, tk.transpose(), constant(0.0f32, const_shape![BM, BN]));
            let s = s * broadcast_scalar(scale, const_shape![BM, BN]);
            let m_new = max_tile(m_i, reduce_max(s, 1));
            let p = exp(s - m_new.reshape(const_shape![BM, 1]).broadcast(const_shape![BM, BN]));
            let alpha = exp(m_i - m_new);
            l_i = l_i * alpha + reduce_sum(p, 1);
            acc = acc * alpha.reshape(const_shape![BM, 1]).broadcast(const_shape![BM, D]);
            acc = mma(convert_tile::<f16>(p), pv.load([j, 0i32]), acc);
            m_i = m_new;
        }
        out.store(acc / l_i.reshape(const_shape![BM, 1]).broadcast(const_shape![BM, D]));
    }
}
