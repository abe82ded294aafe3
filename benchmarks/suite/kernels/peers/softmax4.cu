// nvcc peer of benchmarks/suite/kernels/softmax4.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

// One float4 per load and per store, cols4 = cols / 4 float4s per row.
extern "C" __global__ void softmax4(const float4* __restrict__ x, size_t cols4, float4* __restrict__ out) {
    __shared__ float part[8];
    unsigned t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * cols4;
    float m = __int_as_float(0xff800000);  // -infinity
    for (size_t j = t; j < cols4; j += 256) {
        float4 q = x[base + j];
        m = fmaxf(m, fmaxf(fmaxf(q.x, q.y), fmaxf(q.z, q.w)));
    }
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    if (t % 32 == 0) part[t / 32] = m;
    __syncthreads();
    float row_max = part[0];
    for (int w = 1; w < 8; ++w) row_max = fmaxf(row_max, part[w]);
    __syncthreads();
    float s = 0.0f;
    for (size_t j = t; j < cols4; j += 256) {
        float4 q = x[base + j];
        s += (expf(q.x - row_max) + expf(q.y - row_max)) + (expf(q.z - row_max) + expf(q.w - row_max));
    }
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    if (t % 32 == 0) part[t / 32] = s;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < 8; ++w) total += part[w];
    float inv = 1.0f / total;
    for (size_t j = t; j < cols4; j += 256) {
        float4 q = x[base + j], r;
        r.x = expf(q.x - row_max) * inv;
        r.y = expf(q.y - row_max) * inv;
        r.z = expf(q.z - row_max) * inv;
        r.w = expf(q.w - row_max) * inv;
        out[base + j] = r;
    }
}
