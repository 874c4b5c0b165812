// syrk: PolyBench/GPU SYRK, C = alpha A A^T + beta C for an n x n C and an n x m A, one thread
// per element of C in 32 x 8 blocks:
//
//     __global__ void syrk_kernel(float alpha, float beta, float* a, float* c) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         int i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < NI) && (j < NI)) {
//             c[i * NI + j] *= beta;
//             for (int k = 0; k < NJ; k++) c[i * NI + j] += alpha * a[i * NJ + k] * a[j * NJ + k];
//         }
//     }
//
// A warp is one row i of the block: a[i*NJ + k] is one address for the whole warp, a[j*NJ + k]
// one row of A per lane (lanes 4m bytes apart: 32 lines per warp access).
//
// Modelled SASS: the shared rank-update listing in RankUpdatePass.hpp: 8m + 12 instructions per
// warp with a lane in range, 9 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/RankUpdatePass.hpp"

namespace gpusim {

namespace syrk_kernel {

std::unique_ptr<Workload> makeSyrk(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n"), m = param(params, "m");
    // syrkCuda's cudaMalloc order.
    DeviceAllocator mem;
    RankUpdatePass pass{};
    pass.a = mem.allocateFloats(n * m);
    pass.c = mem.allocateFloats(n * n);
    pass.n = n;
    pass.m = m;
    pass.twoOperands = false;
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(rankUpdateKernel("syrk_kernel", pass));
    return std::make_unique<BasicWorkload>("syrk", nlohmann::json(params), std::move(kernels));
}

} // namespace syrk_kernel

WorkloadInfo syrkWorkload() {
    using namespace syrk_kernel;
    return {"syrk",
            "PolyBench/GPU SYRK, C = alpha A A^T + beta C: per lane a row of A (32 lines per access), "
            "plus a warp-wide broadcast",
            {{"n", 128, 32, 4096, "rows and columns of C, rows of A (NI; PolyBench/GPU default 1024)"},
             {"m", 128, 1, 4096, "columns of A (NJ; PolyBench/GPU default 1024)"}},
            makeSyrk,
            "PolyBench/GPU 1.0, SYRK (syrk.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
