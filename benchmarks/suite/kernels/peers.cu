// The nvcc peers of the oxide kernels in this folder and of examples/rust/transpose.rs: the same algorithm,
// grid and block, written as a CUDA C++ programmer would (no bounds checks beyond the algorithm's own guards).
// Built with `nvcc -O3 -arch=sm_90 -cubin` (and compiled once more with NVRTC for its compile time, so no
// headers).

extern "C" __global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void triad(const float* __restrict__ b, const float* __restrict__ c, float s,
                                 float* __restrict__ a, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + s * c[i];
}

// One float4 per thread (n4 = floats / 4): 128-bit loads (ld.global.nc.v4.f32) and stores (st.global.v4.f32).
extern "C" __global__ void vecadd4(const float4* __restrict__ a, const float4* __restrict__ b,
                                   float4* __restrict__ c, size_t n4) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i], r;
        r.x = x.x + y.x;
        r.y = x.y + y.y;
        r.z = x.z + y.z;
        r.w = x.w + y.w;
        c[i] = r;
    }
}

extern "C" __global__ void triad4(const float4* __restrict__ b, const float4* __restrict__ c, float s,
                                  float4* __restrict__ a, size_t n4) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = b[i], y = c[i], r;
        r.x = x.x + s * y.x;
        r.y = x.y + s * y.y;
        r.z = x.z + s * y.z;
        r.w = x.w + s * y.w;
        a[i] = r;
    }
}

extern "C" __global__ void reduce_sum(const float* __restrict__ x, size_t n, float* out) {
    __shared__ float warp_sums[8];
    unsigned t = threadIdx.x;
    size_t stride = (size_t)gridDim.x * 256;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) v += x[i];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (t % 32 == 0) warp_sums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        float w = t < 8 ? warp_sums[t] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) w += __shfl_xor_sync(0xffffffffu, w, offset);
        if (t == 0) atomicAdd(out, w);
    }
}

#define TILE 32
extern "C" __global__ void transpose(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                                     size_t cols) {
    __shared__ float tile[TILE * (TILE + 1)];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t x = (size_t)blockIdx.x * TILE + tx, y = (size_t)blockIdx.y * TILE + ty;
    for (size_t j = 0; j < TILE; j += 8)
        if (x < cols && y + j < rows) tile[(ty + j) * (TILE + 1) + tx] = in[(y + j) * cols + x];
    __syncthreads();
    size_t x2 = (size_t)blockIdx.y * TILE + tx, y2 = (size_t)blockIdx.x * TILE + ty;
    for (size_t j = 0; j < TILE; j += 8)
        if (x2 < rows && y2 + j < cols) out[(y2 + j) * rows + x2] = tile[tx * (TILE + 1) + ty + j];
}

extern "C" __global__ void histogram(const unsigned char* __restrict__ data, size_t n, unsigned* bins) {
    __shared__ unsigned local[256];
    unsigned t = threadIdx.x;
    local[t] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * 256;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    unsigned count = local[t];
    if (count > 0) atomicAdd(&bins[t], count);
}

extern "C" __global__ void stencil(const float* __restrict__ in, size_t width, size_t height,
                                   float* __restrict__ out) {
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (r > 0 && c > 0 && r + 1 < height && c + 1 < width) {
        float centre = in[r * width + c];
        float sum = in[(r - 1) * width + c] + in[(r + 1) * width + c] + in[r * width + c - 1] + in[r * width + c + 1];
        out[r * width + c] = 0.5f * centre + 0.125f * sum;
    }
}

#define STILE 16
extern "C" __global__ void sgemm(const float* __restrict__ a, const float* __restrict__ b, size_t n,
                                 float* __restrict__ c) {
    __shared__ float as[STILE * STILE], bs[STILE * STILE];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.y * STILE + ty, col = (size_t)blockIdx.x * STILE + tx;
    float acc = 0.0f;
    for (size_t t = 0; t < n; t += STILE) {
        as[ty * STILE + tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
        bs[ty * STILE + tx] = (t + ty < n && col < n) ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < STILE; ++p) acc += as[ty * STILE + p] * bs[p * STILE + tx];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
}

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
