// streamcluster: Rodinia streamcluster (cuda/streamcluster), the GPU part of pgain: for a
// candidate center x, every point computes the cost of moving to x and records the saving or the
// loss. One launch per pgain call, 512-thread blocks, one thread per point:
//
//     __device__ float d_dist(int p1, int p2, int num, int dim, float* coord_d) {
//         float retval = 0.0;
//         for (int i = 0; i < dim; i++) { float tmp = coord_d[(i*num)+p1] - coord_d[(i*num)+p2]; retval += tmp*tmp; }
//         return retval;
//     }
//     __global__ void kernel_compute_cost(int num, int dim, long x, Point* p, int K, int stride,
//                                         float* coord_d, float* work_mem_d, int* center_table_d,
//                                         bool* switch_membership_d) {
//         const int bid = blockIdx.x + gridDim.x * blockIdx.y;
//         const int tid = blockDim.x * bid + threadIdx.x;
//         if (tid < num) {
//             float* lower = &work_mem_d[tid*stride];
//             float x_cost = d_dist(tid, x, num, dim, coord_d) * p[tid].weight;
//             if (x_cost < p[tid].cost) { switch_membership_d[tid] = 1; lower[K] += x_cost - p[tid].cost; }
//             else lower[center_table_d[p[tid].assign]] += p[tid].cost - x_cost;
//         }
//     }
//
// coord_d is dimension-major: coord_d[i*num + tid] is a coalesced segment, coord_d[i*num + x] the
// candidate's coordinate, one address read by every thread. The branch is taken per point from
// the generated data (StreamclusterData.hpp); its two sides scatter into work_mem with a stride of
// K + 1 floats.
//
// Modelled SASS per warp (Point is { float weight; float* coord; long assign; float cost; }: 32
// bytes, weight at 0, assign at 16, cost at 24):
//
//   0x00 S2R CTAID.X  0x10 S2R CTAID.Y  0x20 S2R TID.X  0x30 IMAD bid  0x40 IMAD tid  0x50 ISETP
//   ---- lanes with tid < num ----
//   0x60 IMAD lower = tid * stride   0x70 MOV retval = 0
//   loop i = 0 .. dim-1:
//     0x80 LD coord[i*num + tid]   0x90 LD coord[i*num + x]   0xa0 FADD   0xb0 FFMA
//     0xc0 IADD   0xd0 ISETP   0xe0 BRA
//   0xf0 LD p[tid].weight   0x100 FMUL x_cost   0x110 LD p[tid].cost   0x120 FSETP
//   ---- lanes with x_cost < cost ----
//   0x130 ST.U8 switch_membership[tid] <- RZ (the constant 1)
//   0x140 LD p[tid].cost            reloaded: the bool store may alias p
//   0x150 FADD   0x160 LD lower[K]   0x170 FADD   0x180 ST lower[K]
//   ---- the other lanes ----
//   0x190 LD.64 p[tid].assign   0x1a0 LD center_table[assign]   0x1b0 FADD
//   0x1c0 LD lower[center_table[assign]]   0x1d0 FADD   0x1e0 ST lower[...]
//   ----
//   0x1f0 EXIT      (7 dim + 19 instructions with both sides taken, 7 dim + 13 with one, 7 without)
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/StreamclusterData.hpp"

namespace gpusim {

namespace streamcluster_kernel {

constexpr unsigned kThreadsPerBlock = 512;  // THREADS_PER_BLOCK
constexpr unsigned kPointBytes = 32;
constexpr unsigned kWeightOffset = 0, kAssignOffset = 16, kCostOffset = 24;

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kBid = 3, kTid = 4, kPred = 5, kLower = 6, kDist = 7,
                   kMine = 8, kTheirs = 9, kI = 10, kWeight = 11, kXCost = 12, kCost = 13, kDelta = 14,
                   kWork = 15, kAssign = 16, kCenter = 17;
constexpr unsigned kUsed = 18;
} // namespace reg

enum Slot : unsigned {
    kS2rCtaX, kS2rCtaY, kS2rTid, kImadBid, kImadTid, kIsetp, kImadLower, kMovDist,
    kLdMine, kLdTheirs, kFadd, kFfma, kIadd, kIsetpLoop, kBra,
    kLdWeight, kFmul, kLdCost, kFsetp,
    kStSwitch, kLdCostAgain, kFaddThen, kLdLowerK, kFaddLowerK, kStLowerK,
    kLdAssign, kLdCenter, kFaddElse, kLdLowerC, kFaddLowerC, kStLowerC,
    kExit
};

struct Buffers {
    uint64_t work, centerTable, switchMembership, points, coord;
};

struct Shared {
    StreamclusterData data;
    Buffers buf;
};

WarpProgram pgainWarp(WarpThreads t, std::shared_ptr<const Shared> s, uint64_t launch) {
    const StreamclusterData& d = s->data;
    const Buffers& b = s->buf;
    const uint64_t num = d.n, stride = d.k + 1, x = d.candidates[launch];
    const uint32_t all = t.existMask();
    co_yield inst::alu(sassPc(kS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kS2rTid), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kImadBid), all, {reg::kBid}, {reg::kCtaX, reg::kCtaY});
    co_yield inst::alu(sassPc(kImadTid), all, {reg::kTid}, {reg::kBid, reg::kTidX});
    co_yield inst::alu(sassPc(kIsetp), all, {reg::kPred}, {reg::kTid});
    const uint64_t bid = uint64_t(t.blockIdx().y) * t.gridDim().x + t.blockIdx().x;
    auto tid = [&](unsigned l) { return bid * kThreadsPerBlock + t.threadIdx(l).x; };
    const uint32_t in = t.lanesWhere([&](unsigned l) { return tid(l) < num; });
    if (in != 0) {
        co_yield inst::alu(sassPc(kImadLower), in, {reg::kLower}, {reg::kTid});
        co_yield inst::alu(sassPc(kMovDist), in, {reg::kDist}, {});
        for (uint64_t i = 0; i < d.dim; ++i) {
            co_yield inst::load(sassPc(kLdMine), in, {reg::kMine}, {reg::kTid, reg::kI}, kFloatBytes,
                                [&](unsigned l) { return b.coord + (i * num + tid(l)) * kFloatBytes; });
            co_yield inst::load(sassPc(kLdTheirs), in, {reg::kTheirs}, {reg::kI}, kFloatBytes,
                                [&](unsigned) { return b.coord + (i * num + x) * kFloatBytes; });
            co_yield inst::alu(sassPc(kFadd), in, {reg::kMine}, {reg::kMine, reg::kTheirs});
            co_yield inst::alu(sassPc(kFfma), in, {reg::kDist}, {reg::kMine, reg::kDist});
            for (const auto& op : backEdge(in, kIadd, reg::kI, reg::kPred)) co_yield op;
        }
        auto field = [&](unsigned offset) {
            return [&b, &tid, offset](unsigned l) { return b.points + tid(l) * kPointBytes + offset; };
        };
        co_yield inst::load(sassPc(kLdWeight), in, {reg::kWeight}, {reg::kTid}, kFloatBytes, field(kWeightOffset));
        co_yield inst::alu(sassPc(kFmul), in, {reg::kXCost}, {reg::kDist, reg::kWeight});
        co_yield inst::load(sassPc(kLdCost), in, {reg::kCost}, {reg::kTid}, kFloatBytes, field(kCostOffset));
        co_yield inst::alu(sassPc(kFsetp), in, {reg::kPred}, {reg::kXCost, reg::kCost});
        const uint32_t take = t.lanesWhere(in, [&](unsigned l) { return d.switches(tid(l), launch); });
        const uint32_t other = in & ~take;
        if (take != 0) {
            auto lowerK = [&](unsigned l) { return b.work + (tid(l) * stride + d.k) * kFloatBytes; };
            co_yield inst::store(sassPc(kStSwitch), take, {reg::kTid, kRz}, 1,
                                 [&](unsigned l) { return b.switchMembership + tid(l); });
            co_yield inst::load(sassPc(kLdCostAgain), take, {reg::kCost}, {reg::kTid}, kFloatBytes, field(kCostOffset));
            co_yield inst::alu(sassPc(kFaddThen), take, {reg::kDelta}, {reg::kXCost, reg::kCost});
            co_yield inst::load(sassPc(kLdLowerK), take, {reg::kWork}, {reg::kLower}, kFloatBytes, lowerK);
            co_yield inst::alu(sassPc(kFaddLowerK), take, {reg::kWork}, {reg::kWork, reg::kDelta});
            co_yield inst::store(sassPc(kStLowerK), take, {reg::kLower, reg::kWork}, kFloatBytes, lowerK);
        }
        if (other != 0) {
            auto lowerC = [&](unsigned l) {
                const uint64_t c = uint64_t(d.centerTable[d.assign[tid(l)]]);
                return b.work + (tid(l) * stride + c) * kFloatBytes;
            };
            co_yield inst::load(sassPc(kLdAssign), other, {reg::kAssign}, {reg::kTid}, kPtrBytes, field(kAssignOffset));
            co_yield inst::load(sassPc(kLdCenter), other, {reg::kCenter}, {reg::kAssign}, kIntBytes,
                                [&](unsigned l) { return b.centerTable + uint64_t(d.assign[tid(l)]) * kIntBytes; });
            co_yield inst::alu(sassPc(kFaddElse), other, {reg::kDelta}, {reg::kCost, reg::kXCost});
            co_yield inst::load(sassPc(kLdLowerC), other, {reg::kWork}, {reg::kLower, reg::kCenter}, kFloatBytes, lowerC);
            co_yield inst::alu(sassPc(kFaddLowerC), other, {reg::kWork}, {reg::kWork, reg::kDelta});
            co_yield inst::store(sassPc(kStLowerC), other, {reg::kLower, reg::kCenter, reg::kWork}, kFloatBytes, lowerC);
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeStreamcluster(const std::map<std::string, int64_t>& params, uint64_t seed) {
    const uint64_t n = param(params, "points"), dim = param(params, "dim"), k = param(params, "centers"),
                   launches = param(params, "launches");
    requireParam(k <= n, "streamcluster", "centers: " + std::to_string(k) + " is more than points (" +
                                              std::to_string(n) + ")");
    auto s = std::make_shared<Shared>();
    s->data = StreamclusterData::generate(n, dim, k, launches, seed);
    // pgain's cudaMalloc order: work_mem (every call, freed after it, so always the same
    // address), then allocDevMem's center_table, switch_membership, p, coord.
    DeviceAllocator mem;
    s->buf.work = mem.allocateFloats((k + 1) * (n + 1));
    s->buf.centerTable = mem.allocate(n * kIntBytes);
    s->buf.switchMembership = mem.allocate(n);
    s->buf.points = mem.allocate(n * kPointBytes);
    s->buf.coord = mem.allocateFloats(n * dim);

    std::shared_ptr<const Shared> shared = s;
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kThreadsPerBlock)), 1, 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint64_t l = 0; l < launches; ++l)
        kernels.push_back(makeProgramKernel("kernel_compute_cost", grid, {kThreadsPerBlock, 1, 1}, reg::kUsed, 0,
                                            [shared, l](const WarpThreads& t) { return pgainWarp(t, shared, l); }));
    return std::make_unique<BasicWorkload>("streamcluster", nlohmann::json(params), std::move(kernels));
}

} // namespace streamcluster_kernel

WorkloadInfo streamclusterWorkload() {
    using namespace streamcluster_kernel;
    return {"streamcluster",
            "Rodinia streamcluster pgain: coalesced coordinates, the candidate's coordinate read by every "
            "thread, a data-dependent branch scattering into work_mem",
            {{"points", 8192, 32, 1 << 22, "points (Rodinia default 65536)"},
             {"dim", 32, 1, 1024, "dimensions (Rodinia default 256)"},
             {"centers", 10, 1, 1024, "open centers K (work_mem stride K + 1)"},
             {"launches", 4, 1, 10000, "pgain calls, one kernel each, each with its own candidate"}},
            makeStreamcluster,
            "Rodinia 3.1, streamcluster (cuda/streamcluster: streamcluster_cuda.cu)",
            WorkloadClass::Coherent};
}

} // namespace gpusim
