// bfs: Rodinia BFS (cuda/bfs), level-synchronous breadth-first search over a generated graph
// (RodiniaGraph.hpp). The host loop launches one Kernel / Kernel2 pair per BFS level until no node
// is updated; blocks of MAX_THREADS_PER_BLOCK = 512 threads, one thread per node:
//
//     __global__ void Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask,
//                            bool* g_updating_graph_mask, bool* g_graph_visited, int* g_cost, int no_of_nodes) {
//         int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
//         if (tid < no_of_nodes && g_graph_mask[tid]) {
//             g_graph_mask[tid] = false;
//             for (int i = g_graph_nodes[tid].starting;
//                  i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
//                 int id = g_graph_edges[i];
//                 if (!g_graph_visited[id]) { g_cost[id] = g_cost[tid] + 1; g_updating_graph_mask[id] = true; }
//             }
//         }
//     }
//     __global__ void Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited,
//                             bool* g_over, int no_of_nodes) {
//         int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
//         if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
//             g_graph_mask[tid] = true; g_graph_visited[tid] = true; *g_over = true;
//             g_updating_graph_mask[tid] = false;
//         }
//     }
//
// Active masks come from the graph: in iteration k, Kernel's frontier lanes are the nodes at level
// k, each runs its own number of edge iterations (its degree) and takes the update branch for
// neighbours not yet visited (level > k); Kernel2's updating lanes are the nodes at level k + 1.
// Edge and neighbour loads are scattered (memory-divergent); visited is only written by Kernel2,
// so which neighbours count as unvisited is exactly known.
//
// Modelled SASS per warp, Kernel:
//
//   0x00  S2R   r0 <- SR_CTAID.X   0x10 S2R r1 <- SR_TID.X   0x20 IMAD r2 <- r0, r1 (tid)
//   0x30  ISETP r3 <- r2                                   tid < no_of_nodes
//   ---- lanes with tid < no_of_nodes ----
//   0x40  LD.U8 r4 <- mask[tid]       0x50 ISETP r3 <- r4  mask[tid]
//   ---- frontier lanes (mask[tid]) ----
//   0x60  ST.U8 mask[tid] <- RZ                            = false
//   0x70  LD    r5 <- nodes[tid].starting                  (Node is 8 bytes: starting, no_of_edges)
//   0x80  LD    r6 <- nodes[tid].no_of_edges
//   0x90  IADD  r7 <- r5, r6          0xa0 ISETP r3 <- r5, r7    (i = starting, i < end)
//   loop, lanes with edges left (iteration e runs the lanes whose degree > e):
//   0xb0  LD    r8 <- edges[i]        0xc0 LD.U8 r9 <- visited[id]   0xd0 ISETP r10 <- r9
//     ---- lanes with !visited[id] ----
//     0xe0 LD r11 <- cost[tid]   0xf0 IADD r11 <- r11   0x100 ST cost[id] <- r11
//     0x110 ST.U8 updating[id] <- RZ (the constant true)
//   0x120 LD r5 <- nodes[tid].starting   0x130 LD r6 <- nodes[tid].no_of_edges
//         (the loop bound is re-read: the int and bool stores may alias g_graph_nodes)
//   0x140 IADD r7 <- r5, r6   0x150 IADD r12 <- r12   0x160 ISETP r3 <- r12, r7   0x170 BRA
//   ----
//   0x180 EXIT
//
// Kernel2:
//
//   0x00 .. 0x30 as Kernel;  lanes in range: 0x40 LD.U8 r4 <- updating[tid]  0x50 ISETP
//   updating lanes: 0x60 ST.U8 mask[tid]   0x70 ST.U8 visited[tid]   0x80 ST.U8 *over
//                   0x90 ST.U8 updating[tid]  (constants read RZ)
//   0xa0 EXIT
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/RodiniaGraph.hpp"

namespace gpusim {

namespace bfs_kernel {

constexpr unsigned kMaxThreadsPerBlock = 512;  // Rodinia's MAX_THREADS_PER_BLOCK
constexpr unsigned kNodeBytes = 8;             // struct Node { int starting; int no_of_edges; }

namespace reg {
constexpr uint16_t kTid = 2, kPred = 3, kFlag = 4, kStart = 5, kCount = 6, kEnd = 7,
                   kId = 8, kVisited = 9, kPred2 = 10, kCost = 11, kI = 12;
constexpr unsigned kUsed = 13;
} // namespace reg

enum KernelSlot : unsigned {
    kLdMask = kIndex1dSlots, kIsetpMask,
    kStMask, kLdStart, kLdCount, kIaddEnd, kIsetpEnter,
    kLdEdge, kLdVisited, kIsetpVisited, kLdCost, kIaddCost, kStCost, kStUpdating,
    kLdStartLatch, kLdCountLatch, kIaddEndLatch, kIaddI, kIsetpLoop, kBra,
    kExit1
};
enum Kernel2Slot : unsigned {
    kLdUpdating = kLdMask, kIsetpUpdating, kStMask2, kStVisited2, kStOver, kStUpdating2, kExit2
};

struct Buffers {
    uint64_t nodes, edges, mask, updating, visited, cost, over;
};

struct Shared {
    RodiniaGraph g;
    Buffers buf;
};

WarpProgram kernelWarp(WarpThreads t, std::shared_ptr<const Shared> s, uint32_t iteration) {
    const RodiniaGraph& g = s->g;
    const Buffers& b = s->buf;
    const uint64_t n = g.nodes();
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kTid, .pred = reg::kPred})) co_yield op;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalX(l) < n; });
    if (in != 0) {
        auto byte = [&](uint64_t base) { return [&t, base](unsigned l) { return base + t.globalX(l); }; };
        auto nodeField = [&](uint64_t offset) {
            return [&t, &b, offset](unsigned l) { return b.nodes + t.globalX(l) * kNodeBytes + offset; };
        };
        co_yield inst::load(sassPc(kLdMask), in, {reg::kFlag}, {reg::kTid}, 1, byte(b.mask));
        co_yield inst::alu(sassPc(kIsetpMask), in, {reg::kPred}, {reg::kFlag});
        const uint32_t frontier = t.lanesWhere(in, [&](unsigned l) { return g.level[t.globalX(l)] == iteration; });
        if (frontier != 0) {
            co_yield inst::store(sassPc(kStMask), frontier, {reg::kTid, kRz}, 1, byte(b.mask));
            co_yield inst::load(sassPc(kLdStart), frontier, {reg::kStart}, {reg::kTid}, kIntBytes, nodeField(0));
            co_yield inst::load(sassPc(kLdCount), frontier, {reg::kCount}, {reg::kTid}, kIntBytes, nodeField(4));
            co_yield inst::alu(sassPc(kIaddEnd), frontier, {reg::kEnd}, {reg::kStart, reg::kCount});
            co_yield inst::alu(sassPc(kIsetpEnter), frontier, {reg::kPred}, {reg::kStart, reg::kEnd});
            uint32_t maxDegree = 0;
            for (unsigned l = 0; l < kWarpSize; ++l)
                if (frontier >> l & 1u) maxDegree = std::max(maxDegree, g.degree[t.globalX(l)]);
            for (uint32_t e = 0; e < maxDegree; ++e) {
                const uint32_t live = t.lanesWhere(frontier, [&](unsigned l) { return g.degree[t.globalX(l)] > e; });
                auto edge = [&](unsigned l) { return g.start[t.globalX(l)] + e; };
                auto neighbour = [&](unsigned l) { return g.edges[edge(l)]; };
                co_yield inst::load(sassPc(kLdEdge), live, {reg::kId}, {reg::kI}, kIntBytes,
                                    [&](unsigned l) { return b.edges + uint64_t(edge(l)) * kIntBytes; });
                co_yield inst::load(sassPc(kLdVisited), live, {reg::kVisited}, {reg::kId}, 1,
                                    [&](unsigned l) { return b.visited + neighbour(l); });
                co_yield inst::alu(sassPc(kIsetpVisited), live, {reg::kPred2}, {reg::kVisited});
                // visited[] is written only by Kernel2: at iteration k exactly the nodes of level <= k.
                const uint32_t fresh = t.lanesWhere(live, [&](unsigned l) { return g.level[neighbour(l)] > iteration; });
                if (fresh != 0) {
                    co_yield inst::load(sassPc(kLdCost), fresh, {reg::kCost}, {reg::kTid}, kIntBytes,
                                        [&](unsigned l) { return b.cost + t.globalX(l) * kIntBytes; });
                    co_yield inst::alu(sassPc(kIaddCost), fresh, {reg::kCost}, {reg::kCost});
                    co_yield inst::store(sassPc(kStCost), fresh, {reg::kId, reg::kCost}, kIntBytes,
                                         [&](unsigned l) { return b.cost + uint64_t(neighbour(l)) * kIntBytes; });
                    co_yield inst::store(sassPc(kStUpdating), fresh, {reg::kId, kRz}, 1,
                                         [&](unsigned l) { return b.updating + neighbour(l); });
                }
                co_yield inst::load(sassPc(kLdStartLatch), live, {reg::kStart}, {reg::kTid}, kIntBytes, nodeField(0));
                co_yield inst::load(sassPc(kLdCountLatch), live, {reg::kCount}, {reg::kTid}, kIntBytes, nodeField(4));
                co_yield inst::alu(sassPc(kIaddEndLatch), live, {reg::kEnd}, {reg::kStart, reg::kCount});
                for (const auto& op : backEdge(live, kIaddI, reg::kI, reg::kPred, reg::kEnd)) co_yield op;
            }
        }
    }
    co_yield inst::exit(sassPc(kExit1), all);
}

WarpProgram kernel2Warp(WarpThreads t, std::shared_ptr<const Shared> s, uint32_t iteration) {
    const RodiniaGraph& g = s->g;
    const Buffers& b = s->buf;
    const uint64_t n = g.nodes();
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kTid, .pred = reg::kPred})) co_yield op;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalX(l) < n; });
    if (in != 0) {
        auto byte = [&](uint64_t base) { return [&t, base](unsigned l) { return base + t.globalX(l); }; };
        co_yield inst::load(sassPc(kLdUpdating), in, {reg::kFlag}, {reg::kTid}, 1, byte(b.updating));
        co_yield inst::alu(sassPc(kIsetpUpdating), in, {reg::kPred}, {reg::kFlag});
        const uint32_t upd = t.lanesWhere(in, [&](unsigned l) { return g.level[t.globalX(l)] == iteration + 1; });
        if (upd != 0) {
            co_yield inst::store(sassPc(kStMask2), upd, {reg::kTid, kRz}, 1, byte(b.mask));
            co_yield inst::store(sassPc(kStVisited2), upd, {reg::kTid, kRz}, 1, byte(b.visited));
            co_yield inst::store(sassPc(kStOver), upd, {kRz}, 1, [&](unsigned) { return b.over; });
            co_yield inst::store(sassPc(kStUpdating2), upd, {reg::kTid, kRz}, 1, byte(b.updating));
        }
    }
    co_yield inst::exit(sassPc(kExit2), all);
}

std::unique_ptr<Workload> makeBfs(const std::map<std::string, int64_t>& params, uint64_t seed) {
    const uint64_t n = param(params, "nodes");
    auto s = std::make_shared<Shared>();
    s->g = RodiniaGraph::generate(n, seed);
    // BFSGraph's cudaMalloc order.
    DeviceAllocator mem;
    Buffers& b = s->buf;
    b.nodes = mem.allocate(n * kNodeBytes);
    b.edges = mem.allocate(s->g.edges.size() * kIntBytes);
    b.mask = mem.allocate(n);
    b.updating = mem.allocate(n);
    b.visited = mem.allocate(n);
    b.cost = mem.allocate(n * kIntBytes);
    b.over = mem.allocate(1);

    const unsigned block = static_cast<unsigned>(std::min<uint64_t>(n, kMaxThreadsPerBlock));
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kMaxThreadsPerBlock)), 1, 1};
    std::shared_ptr<const Shared> shared = s;
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint32_t k = 0; k < s->g.levels; ++k) {
        kernels.push_back(makeProgramKernel("Kernel", grid, {block, 1, 1}, reg::kUsed, 0,
                                            [shared, k](const WarpThreads& t) { return kernelWarp(t, shared, k); }));
        kernels.push_back(makeProgramKernel("Kernel2", grid, {block, 1, 1}, reg::kUsed, 0,
                                            [shared, k](const WarpThreads& t) { return kernel2Warp(t, shared, k); }));
    }
    return std::make_unique<BasicWorkload>("bfs", nlohmann::json(params), std::move(kernels));
}

} // namespace bfs_kernel

WorkloadInfo bfsWorkload() {
    using namespace bfs_kernel;
    return {"bfs",
            "Rodinia BFS on a graphgen-like random graph (mean degree 6): one Kernel/Kernel2 pair per level, "
            "frontier masks and per-lane edge loops from the graph",
            {{"nodes", 16384, 32, 1 << 24, "graph nodes (Rodinia inputs: 4096, 65536, 1000000)"}},
            makeBfs,
            "Rodinia 3.1, bfs (cuda/bfs: kernel.cu, kernel2.cu, graphgen)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
