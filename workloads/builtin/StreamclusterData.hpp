#pragma once
// Input data of the streamcluster workload: the points, the current facility assignment and the
// candidate centers pgain is asked about, all from the run's seed.
//
// Rodinia reads or generates points with dim uniform coordinates and, before the GPU pgain calls,
// has opened K centers and assigned every point to one (cost = distance to it, weight 1). Here
// coordinates are uniform in [0, 1) (a hash of point and dimension, so nothing n x dim is stored),
// the K centers are distinct random points, every point is assigned to a random one of them (not
// to its nearest, which would need an n x K x dim search), and each pgain launch asks about a
// random candidate point x. The kernel's branch (x_cost < cost) is evaluated exactly on this data,
// in float, summing dimensions in order as d_dist does.
#include <cstdint>
#include <vector>

#include "workloads/SeededRandom.hpp"

namespace gpusim {

struct StreamclusterData {
    uint64_t n = 0, dim = 0, k = 0, seed = 0;
    std::vector<uint32_t> centers;      // point index of each open center
    std::vector<int32_t> centerTable;   // center_table[point] = 0 .. K-1 for centers, -1 otherwise
    std::vector<uint32_t> assign;       // Point.assign: the center point a point belongs to
    std::vector<float> cost;            // Point.cost = weight (1) * distance to that center
    std::vector<uint32_t> candidates;   // x of each pgain launch

    float coord(uint64_t point, uint64_t d) const { return unitFloat(hashOf(seed, point, d)); }
    // d_dist(p1, p2): the squared Euclidean distance, accumulated in dimension order.
    float dist(uint64_t p1, uint64_t p2) const {
        float r = 0.0f;
        for (uint64_t d = 0; d < dim; ++d) {
            const float t = coord(p1, d) - coord(p2, d);
            r += t * t;
        }
        return r;
    }
    // The kernel's `x_cost < p[tid].cost` (weight 1).
    bool switches(uint64_t point, uint64_t launch) const { return dist(point, candidates[launch]) < cost[point]; }

    static StreamclusterData generate(uint64_t n, uint64_t dim, uint64_t k, uint64_t launches, uint64_t seed) {
        StreamclusterData s;
        s.n = n;
        s.dim = dim;
        s.k = k;
        s.seed = seed;
        Rng rng(seed);
        s.centerTable.assign(n, -1);
        while (s.centers.size() < k) {
            const uint32_t c = static_cast<uint32_t>(rng.below(n));
            if (s.centerTable[c] >= 0) continue;
            s.centerTable[c] = static_cast<int32_t>(s.centers.size());
            s.centers.push_back(c);
        }
        s.assign.resize(n);
        s.cost.resize(n);
        for (uint64_t p = 0; p < n; ++p) {
            s.assign[p] = s.centers[rng.below(k)];
            s.cost[p] = s.dist(p, s.assign[p]);
        }
        for (uint64_t l = 0; l < launches; ++l) s.candidates.push_back(static_cast<uint32_t>(rng.below(n)));
        return s;
    }
};

} // namespace gpusim
