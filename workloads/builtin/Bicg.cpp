// bicg: PolyBench/GPU BICG, the BiCGStab sub-kernel s = A^T r, q = A p, as two kernels over an
// n x n matrix (NX = NY = n):
//
//     __global__ void bicg_kernel1(float* A, float* r, float* s) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         if (j < NY) { s[j] = 0.0f; for (int i = 0; i < NX; i++) s[j] += r[i] * A[i * NY + j]; }
//     }
//     __global__ void bicg_kernel2(float* A, float* p, float* q) {
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < NX) { q[i] = 0.0f; for (int j = 0; j < NY; j++) q[i] += A[i * NY + j] * p[j]; }
//     }
//
// Kernel 1 walks a column per thread (coalesced), kernel 2 a row per thread (32 lines per warp
// access): the reverse order of ATAX.
//
// Modelled SASS: the shared matrix-vector listing in MatVecPass.hpp with the accumulator zeroed
// by a store before the loop (no load: the value 0 stays in a register); kernel 1 loads r[i]
// before A (the source's operand order), kernel 2 A before p. 7n + 6 instructions per warp with a
// lane in range, 5 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/MatVecPass.hpp"

namespace gpusim {

namespace bicg_kernel {

std::unique_ptr<Workload> makeBicg(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // bicgCuda's cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n);
    const uint64_t r = mem.allocateFloats(n);
    const uint64_t s = mem.allocateFloats(n);
    const uint64_t p = mem.allocateFloats(n);
    const uint64_t q = mem.allocateFloats(n);

    MatVecPass k1{a, s, r, /*strideT=*/1, /*strideU=*/n, n, n};
    k1.zeroInit = true;
    k1.vecFirst = true;
    MatVecPass k2{a, q, p, /*strideT=*/n, /*strideU=*/1, n, n};
    k2.zeroInit = true;
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(matVecKernel("bicg_kernel1", k1));
    kernels.push_back(matVecKernel("bicg_kernel2", k2));
    return std::make_unique<BasicWorkload>("bicg", nlohmann::json(params), std::move(kernels));
}

} // namespace bicg_kernel

WorkloadInfo bicgWorkload() {
    using namespace bicg_kernel;
    return {"bicg",
            "PolyBench/GPU BICG, s = A^T r and q = A p: kernel 1 column-per-thread (coalesced A), "
            "kernel 2 row-per-thread (uncoalesced A)",
            {{"n", 1024, 32, 16384, "matrix dimension NX = NY (PolyBench/GPU default 4096)"}},
            makeBicg,
            "PolyBench/GPU 1.0, BICG (bicg.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
