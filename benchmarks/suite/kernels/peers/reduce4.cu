// nvcc peer of benchmarks/suite/kernels/reduce4.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

// One float4 per iteration (n4 = floats / 4): ld.global.nc.v4.f32.
extern "C" __global__ void reduce_sum4(const float4* __restrict__ x, size_t n4, float* out) {
    __shared__ float warp_sums[8];
    unsigned t = threadIdx.x;
    size_t stride = (size_t)gridDim.x * 256;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n4; i += stride) {
        float4 q = x[i];
        v += (q.x + q.y) + (q.z + q.w);
    }
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (t % 32 == 0) warp_sums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        float w = t < 8 ? warp_sums[t] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) w += __shfl_xor_sync(0xffffffffu, w, offset);
        if (t == 0) atomicAdd(out, w);
    }
}
