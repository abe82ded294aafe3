// nvcc peer of benchmarks/suite/kernels/softmax.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

extern "C" __global__ void softmax(const float* __restrict__ x, size_t cols, float* __restrict__ out) {
    __shared__ float part[8];
    unsigned t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * cols;
    float m = __int_as_float(0xff800000);  // -infinity
    for (size_t j = t; j < cols; j += 256) m = fmaxf(m, x[base + j]);
    for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    if (t % 32 == 0) part[t / 32] = m;
    __syncthreads();
    float row_max = part[0];
    for (int w = 1; w < 8; ++w) row_max = fmaxf(row_max, part[w]);
    __syncthreads();
    float s = 0.0f;
    for (size_t j = t; j < cols; j += 256) s += expf(x[base + j] - row_max);
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    if (t % 32 == 0) part[t / 32] = s;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < 8; ++w) total += part[w];
    float inv = 1.0f / total;
    for (size_t j = t; j < cols; j += 256) out[base + j] = expf(x[base + j] - row_max) * inv;
}
