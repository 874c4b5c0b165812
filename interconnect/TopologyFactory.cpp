#include "interconnect/TopologyFactory.hpp"

#include <numeric>

#include "common/SimError.hpp"
#include "interconnect/ButterflyTopology.hpp"
#include "interconnect/CrossbarTopology.hpp"
#include "interconnect/MeshTopology.hpp"

namespace gpusim {

std::unique_ptr<Topology> makeGpuSubnet(const NocParams& p, unsigned clusters, unsigned partitions, Subnet which) {
    const bool req = which == Subnet::Request;
    const unsigned src = req ? clusters : partitions, dst = req ? partitions : clusters;
    switch (p.topology) {
    case TopologyKind::Crossbar: return std::make_unique<CrossbarTopology>(src, dst, p.voq);
    case TopologyKind::Butterfly: return std::make_unique<ButterflyTopology>(p.flyRadix, p.flyStages, src, dst);
    case TopologyKind::Mesh: {
        const MeshPlacement m = MeshPlacement::fromParams(p, clusters, partitions);
        return req ? std::make_unique<MeshTopology>(m.rows, m.cols, m.smNodes, m.mcNodes)
                   : std::make_unique<MeshTopology>(m.rows, m.cols, m.mcNodes, m.smNodes);
    }
    }
    throw std::logic_error("unknown topology");
}

std::unique_ptr<Topology> makeSyntheticTopology(const NocParams& p, unsigned nodes) {
    if (nodes == 0) throw InputError("--nodes: at least one terminal");
    switch (p.topology) {
    case TopologyKind::Crossbar: return std::make_unique<CrossbarTopology>(nodes, nodes, p.voq);
    case TopologyKind::Butterfly: return std::make_unique<ButterflyTopology>(p.flyRadix, p.flyStages, nodes, nodes);
    case TopologyKind::Mesh: {
        unsigned rows = p.meshRows, cols = p.meshCols;
        if (rows == 0) {
            unsigned side = 1;
            while (side * side < nodes) ++side;
            if (side * side != nodes)
                throw InputError("--nodes: " + std::to_string(nodes) +
                                 " is not a square; set noc.mesh.rows and noc.mesh.cols for a mesh");
            rows = cols = side;
        }
        if (rows * cols != nodes)
            throw InputError("--nodes: " + std::to_string(nodes) + " terminals on a " + std::to_string(rows) + "x" +
                             std::to_string(cols) + " mesh (noc.mesh.rows x noc.mesh.cols); they must be equal");
        std::vector<unsigned> all(nodes);
        std::iota(all.begin(), all.end(), 0u);
        return std::make_unique<MeshTopology>(rows, cols, all, all);
    }
    }
    throw std::logic_error("unknown topology");
}

} // namespace gpusim
