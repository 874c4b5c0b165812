// Expectations from Rodinia bfs (kernel.cu, kernel2.cu, graphgen.cpp) and the modelled SASS in
// Bfs.cpp. The graph comes from RodiniaGraph::generate; the per-warp counts below are computed
// from it with the source's control flow written out by hand:
//   Kernel, iteration k: 5 instructions without a lane in range; 7 with lanes in range but no
//     frontier node (level k); with frontier lanes F: 7 + 5 + per edge step e < max degree in F:
//     9, plus 4 if some lane of F with degree > e finds an unvisited neighbour (level > k).
//   Kernel2: 5 / 7 / 11 (some lane updated, i.e. at level k + 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "WorkloadTestHelpers.hpp"
#include "workloads/builtin/RodiniaGraph.hpp"

namespace bfs_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct Expected {
    uint64_t instructions = 0, loads = 0, stores = 0;
};

// Kernel (k even index 2*it) and Kernel2 for iteration `it`, from the source.
Expected expectKernel(const RodiniaGraph& g, uint32_t it, uint64_t warps) {
    Expected e;
    for (uint64_t w = 0; w < warps; ++w) {
        std::vector<uint32_t> in, frontier;
        for (uint64_t t = w * 32; t < w * 32 + 32; ++t)
            if (t < g.nodes()) {
                in.push_back(uint32_t(t));
                if (g.level[t] == it) frontier.push_back(uint32_t(t));
            }
        if (in.empty()) {
            e.instructions += 5;
            continue;
        }
        e.instructions += 7;
        e.loads += 1;  // mask[tid]
        if (frontier.empty()) continue;
        e.instructions += 5;
        e.loads += 2;   // starting, no_of_edges
        e.stores += 1;  // mask[tid] = false
        uint32_t maxDeg = 0;
        for (uint32_t v : frontier) maxDeg = std::max(maxDeg, g.degree[v]);
        for (uint32_t s = 0; s < maxDeg; ++s) {
            bool fresh = false;
            for (uint32_t v : frontier)
                if (g.degree[v] > s && g.level[g.edges[g.start[v] + s]] > it) fresh = true;
            e.instructions += 9 + (fresh ? 4 : 0);
            e.loads += 4 + (fresh ? 1 : 0);  // edge, visited, bound reload x2 (+ cost[tid])
            e.stores += fresh ? 2 : 0;       // cost[id], updating[id]
        }
    }
    return e;
}

Expected expectKernel2(const RodiniaGraph& g, uint32_t it, uint64_t warps) {
    Expected e;
    for (uint64_t w = 0; w < warps; ++w) {
        bool any = false, updated = false;
        for (uint64_t t = w * 32; t < w * 32 + 32 && t < g.nodes(); ++t) {
            any = true;
            updated = updated || g.level[t] == it + 1;
        }
        e.instructions += !any ? 5 : updated ? 11 : 7;
        e.loads += any ? 1 : 0;
        e.stores += updated ? 4 : 0;
    }
    return e;
}

} // namespace

TEST(RodiniaGraph, DegreeDistributionIsGraphgens) {
    const RodiniaGraph g = RodiniaGraph::generate(20000, 7);
    uint64_t total = 0;
    for (uint64_t v = 0; v < g.nodes(); ++v) {
        ASSERT_GE(g.degree[v], 2u);  // every node draws at least MIN_EDGES itself
        total += g.degree[v];
        ASSERT_EQ(g.start[v], v == 0 ? 0 : g.start[v - 1] + g.degree[v - 1]);
    }
    EXPECT_EQ(total, g.edges.size());
    EXPECT_EQ(total % 2, 0u);  // every drawn edge is stored both ways
    const double mean = double(total) / double(g.nodes());
    EXPECT_GT(mean, 5.9);  // 2 * E[2..4] = 6
    EXPECT_LT(mean, 6.1);
    EXPECT_LT(g.source, g.nodes());
    EXPECT_EQ(g.level[g.source], 0u);
    // BFS levels: every edge from a reached node reaches a node at most one level deeper.
    for (uint64_t v = 0; v < g.nodes(); ++v)
        if (g.level[v] != RodiniaGraph::kUnreached) {
            for (uint32_t e = g.start[v]; e < g.start[v] + g.degree[v]; ++e) ASSERT_LE(g.level[g.edges[e]], g.level[v] + 1);
        }
    EXPECT_GT(g.levels, 3u);
}

TEST(Bfs, OneKernelPairPerLevel) {
    auto w = makeWorkload("bfs:nodes=3000", 11);
    const RodiniaGraph g = RodiniaGraph::generate(3000, 11);
    ASSERT_EQ(w->kernels().size(), 2u * g.levels);
    for (size_t k = 0; k < w->kernels().size(); ++k) {
        const auto& info = w->kernels()[k]->info();
        EXPECT_EQ(info.name, k % 2 ? "Kernel2" : "Kernel");
        EXPECT_EQ(info.block.x, 512u);
        EXPECT_EQ(info.grid.x, 6u);  // ceil(3000 / 512)
        EXPECT_TRUE(wellFormed(*w->kernels()[k]));
    }
}

TEST(Bfs, CountsFollowTheGraph) {
    const uint64_t n = 3000, warps = 6 * 16;
    const RodiniaGraph g = RodiniaGraph::generate(n, 11);
    auto w = makeWorkload("bfs:nodes=3000", 11);
    for (uint32_t it = 0; it < g.levels; ++it) {
        const Census c1 = census(*w->kernels()[2 * it]), c2 = census(*w->kernels()[2 * it + 1]);
        const Expected e1 = expectKernel(g, it, warps), e2 = expectKernel2(g, it, warps);
        EXPECT_EQ(c1.instructions, e1.instructions) << it;
        EXPECT_EQ(c1.globalLoads, e1.loads) << it;
        EXPECT_EQ(c1.globalStores, e1.stores) << it;
        EXPECT_EQ(c2.instructions, e2.instructions) << it;
        EXPECT_EQ(c2.globalLoads, e2.loads) << it;
        EXPECT_EQ(c2.globalStores, e2.stores) << it;
    }
}

TEST(Bfs, FrontierLanesAndAddresses) {
    const uint64_t n = 3000;
    const RodiniaGraph g = RodiniaGraph::generate(n, 11);
    auto w = makeWorkload("bfs:nodes=3000", 11);
    // Buffers: nodes (8n = 24000 -> 24064), edges (4 E), mask, updating, visited, cost, over.
    const uint64_t nodes = 0x10000000, edges = nodes + 24064;
    auto up = [](uint64_t b) { return (b + 255) / 256 * 256; };
    const uint64_t mask = edges + up(g.edges.size() * 4), updating = mask + up(n), visited = updating + up(n);
    // Iteration 1: the source's neighbours are the frontier.
    const uint32_t it = 1;
    uint32_t v = 0;
    while (g.level[v] != it) ++v;
    const uint64_t warp = v / 32;
    const unsigned lane = v % 32;
    auto s = drainByLinearWarp(*w->kernels()[2 * it], warp);
    EXPECT_EQ(s[4].addr[lane], mask + v);                  // LD.U8 mask[tid]
    EXPECT_EQ(s[4].accessBytes, 1u);
    EXPECT_TRUE(s[6].activeMask >> lane & 1u);             // frontier lane: ST mask[tid] = false
    EXPECT_EQ(s[7].addr[lane], nodes + 8 * uint64_t(v));   // starting
    EXPECT_EQ(s[8].addr[lane], nodes + 8 * uint64_t(v) + 4);
    EXPECT_EQ(s[11].addr[lane], edges + 4 * uint64_t(g.start[v]));  // first edge
    EXPECT_EQ(s[12].addr[lane], visited + g.edges[g.start[v]]);
    for (unsigned l = 0; l < 32; ++l)
        if (warp * 32 + l < n) {
            EXPECT_EQ(s[6].activeMask >> l & 1u, g.level[warp * 32 + l] == it ? 1u : 0u) << l;
        }
    // Kernel2 of the same iteration stores for the nodes at level 2.
    uint32_t u = 0;
    while (g.level[u] != it + 1) ++u;
    auto s2 = drainByLinearWarp(*w->kernels()[2 * it + 1], u / 32);
    ASSERT_EQ(s2.size(), 11u);
    EXPECT_EQ(s2[4].addr[u % 32], updating + u);
    EXPECT_EQ(s2[7].addr[u % 32], visited + u);
}

TEST(Bfs, DistinctLinesFollowTheGraph) {
    // Kernel of iteration 1: per warp, the mask load is 32 consecutive bytes (one line); the Node
    // loads of frontier lanes hit the lines of nodes + 8 tid; each edge step's edge and visited
    // loads hit the lines of their lanes' edge slots and neighbours. Recomputed here from the graph.
    const uint64_t n = 3000;
    const RodiniaGraph g = RodiniaGraph::generate(n, 11);
    auto w = makeWorkload("bfs:nodes=3000", 11);
    auto up = [](uint64_t b) { return (b + 255) / 256 * 256; };
    const uint64_t nodes = 0x10000000, edges = nodes + up(n * 8), mask = edges + up(g.edges.size() * 4),
                   updating = mask + up(n), visited = updating + up(n), cost = visited + up(n);
    const uint32_t it = 1;
    uint64_t expected = 0;
    for (uint64_t warp = 0; warp < 96; ++warp) {
        std::vector<uint32_t> frontier;
        bool any = false;
        for (uint64_t t = warp * 32; t < warp * 32 + 32 && t < n; ++t) {
            any = true;
            if (g.level[t] == it) frontier.push_back(uint32_t(t));
        }
        if (!any) continue;
        expected += 1;  // mask[tid]
        if (frontier.empty()) continue;
        auto lines = [](const std::vector<uint64_t>& addrs) {
            std::set<uint64_t> l;
            for (uint64_t a : addrs) l.insert(a / 128);
            return uint64_t(l.size());
        };
        std::vector<uint64_t> field;
        for (uint32_t v : frontier) field.push_back(nodes + 8 * uint64_t(v));
        expected += 2 * lines(field);  // starting and no_of_edges share their lines
        uint32_t maxDeg = 0;
        for (uint32_t v : frontier) maxDeg = std::max(maxDeg, g.degree[v]);
        for (uint32_t e = 0; e < maxDeg; ++e) {
            std::vector<uint64_t> edge, vis, own, live;
            for (uint32_t v : frontier)
                if (g.degree[v] > e) {
                    const uint32_t id = g.edges[g.start[v] + e];
                    edge.push_back(edges + 4 * uint64_t(g.start[v] + e));
                    vis.push_back(visited + id);
                    live.push_back(nodes + 8 * uint64_t(v));
                    if (g.level[id] > it) own.push_back(cost + 4 * uint64_t(v));
                }
            expected += lines(edge) + lines(vis) + (own.empty() ? 0 : lines(own)) + 2 * lines(live);
        }
    }
    EXPECT_EQ(census(*w->kernels()[2 * it]).loadLines, expected);
}

TEST(Bfs, DeterministicBySeed) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("bfs:nodes=2000", 5), *makeWorkload("bfs:nodes=2000", 5)));
    EXPECT_FALSE(sameWorkload(*makeWorkload("bfs:nodes=2000", 5), *makeWorkload("bfs:nodes=2000", 6)));
}

} // namespace bfs_test
