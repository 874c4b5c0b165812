#pragma once
// Input data of the bfs workload: a graph generated the way Rodinia's graphgen.cpp builds its
// inputs (graph4096, graph65536, graph1MW_6), and the BFS levels Rodinia's kernels discover.
//
// graphgen: every node i draws 2..4 edges (uniform) to uniformly random nodes and each edge is
// also added reversed, so a node's degree is its own 2..4 plus the edges other nodes drew to it
// (about Poisson with mean 3): mean degree 6, as graph1MW_6's name says. Multiple edges and
// self-loops are kept, the graph need not be connected, and the BFS source is one more uniform
// draw. Adjacency lists keep graphgen's insertion order. Only the random generator differs
// (SplitMix64 from the run's seed instead of rand() and a linear congruential engine), so the
// graph has Rodinia's degree distribution but not its exact edges.
//
// Levels: Rodinia's BFS is level-synchronous (one Kernel/Kernel2 pair per level), so the nodes
// in the frontier of iteration k are exactly those at BFS distance k from the source.
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/SeededRandom.hpp"

namespace gpusim {

struct RodiniaGraph {
    static constexpr uint32_t kMinOwnEdges = 2, kMaxOwnEdges = 4;  // graphgen's MIN_EDGES, MAX_INIT_EDGES
    static constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

    std::vector<uint32_t> start;   // Node.starting: first edge of node v
    std::vector<uint32_t> degree;  // Node.no_of_edges
    std::vector<uint32_t> edges;   // destination of each edge
    uint32_t source = 0;
    std::vector<uint32_t> level;   // BFS distance from source, kUnreached if not reachable
    uint32_t levels = 0;           // number of BFS iterations Rodinia runs: max level + 1

    uint64_t nodes() const { return degree.size(); }

    static RodiniaGraph generate(uint64_t nodes, uint64_t seed) {
        RodiniaGraph g;
        g.degree.assign(nodes, 0);
        g.start.assign(nodes, 0);
        // Two passes over the same random stream: count degrees, then place edges, so the
        // adjacency lists come out in graphgen's insertion order without per-node vectors.
        for (int pass = 0; pass < 2; ++pass) {
            Rng rng(seed);
            std::vector<uint32_t> fill;
            if (pass == 1) {
                uint64_t total = 0;
                for (uint64_t v = 0; v < nodes; ++v) {
                    g.start[v] = static_cast<uint32_t>(total);
                    total += g.degree[v];
                }
                g.edges.assign(total, 0);
                fill.assign(nodes, 0);
            }
            for (uint64_t i = 0; i < nodes; ++i) {
                const uint64_t own = uint64_t(rng.between(kMinOwnEdges, kMaxOwnEdges));
                for (uint64_t e = 0; e < own; ++e) {
                    const uint64_t dest = rng.below(nodes);
                    if (pass == 0) {
                        ++g.degree[i];
                        ++g.degree[dest];
                    } else {
                        g.edges[g.start[i] + fill[i]++] = static_cast<uint32_t>(dest);
                        g.edges[g.start[dest] + fill[dest]++] = static_cast<uint32_t>(i);
                    }
                }
            }
            if (pass == 1) g.source = static_cast<uint32_t>(rng.below(nodes));
        }
        g.computeLevels();
        return g;
    }

private:
    void computeLevels() {
        level.assign(nodes(), kUnreached);
        std::vector<uint32_t> frontier{source}, next;
        level[source] = 0;
        uint32_t depth = 0;
        while (!frontier.empty()) {
            next.clear();
            for (uint32_t v : frontier)
                for (uint32_t e = start[v]; e < start[v] + degree[v]; ++e)
                    if (level[edges[e]] == kUnreached) {
                        level[edges[e]] = depth + 1;
                        next.push_back(edges[e]);
                    }
            frontier.swap(next);
            ++depth;
        }
        levels = depth;
    }
};

} // namespace gpusim
