#include "interconnect/MeshTopology.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

#include "common/SimError.hpp"

namespace gpusim {

MeshTopology::MeshTopology(unsigned rows, unsigned cols, const std::vector<unsigned>& sourceNodes,
                           const std::vector<unsigned>& sinkNodes)
    : rows_(rows), cols_(cols) {
    if (rows == 0 || cols == 0) throw std::logic_error("mesh without nodes");
    const unsigned n = rows * cols;
    for (unsigned id = 0; id < n; ++id) routers_.push_back({"n" + std::to_string(id), kPorts, kPorts});
    for (unsigned r = 0; r < rows; ++r)
        for (unsigned c = 0; c < cols; ++c) {
            const unsigned id = r * cols + c;
            if (c + 1 < cols) {
                channels_.push_back({{id, East}, {id + 1, West}});
                channels_.push_back({{id + 1, West}, {id, East}});
            }
            if (r + 1 < rows) {
                channels_.push_back({{id, South}, {id + cols, North}});
                channels_.push_back({{id + cols, North}, {id, South}});
            }
        }
    for (unsigned node : sourceNodes) {
        if (node >= n) throw std::logic_error("mesh source outside the mesh");
        sources_.push_back({node, Local});
    }
    for (unsigned node : sinkNodes) {
        if (node >= n) throw std::logic_error("mesh sink outside the mesh");
        sinks_.push_back({node, Local});
    }
    finish();  // rejects two sources (or two sinks) on one node
}

unsigned MeshTopology::route(unsigned router, unsigned dst) const {
    const unsigned target = sinks_[dst].router;
    const unsigned r = router / cols_, c = router % cols_;
    const unsigned tr = target / cols_, tc = target % cols_;
    if (tc > c) return East;
    if (tc < c) return West;
    if (tr > r) return South;
    if (tr < r) return North;
    return Local;
}

std::string MeshTopology::portName(unsigned, unsigned outPort) const {
    static const char* names[kPorts] = {"local", "east", "west", "south", "north"};
    return outPort < kPorts ? names[outPort] : "?";
}

std::string MeshTopology::describe() const {
    return "mesh " + std::to_string(rows_) + "x" + std::to_string(cols_) + ", XY routing, " +
           std::to_string(sources_.size()) + " sources, " + std::to_string(sinks_.size()) + " sinks";
}

std::string MeshTopology::layout() const {
    std::vector<int> role(rows_ * cols_, 0);
    for (const auto& s : sources_) role[s.router] |= 1;
    for (const auto& s : sinks_) role[s.router] |= 2;
    std::ostringstream os;
    for (unsigned r = 0; r < rows_; ++r) {
        for (unsigned c = 0; c < cols_; ++c) os << (c ? " " : "") << ".SMB"[role[r * cols_ + c]];
        os << "\n";
    }
    return os.str();
}

MeshPlacement MeshPlacement::fromParams(const NocParams& p, unsigned clusters, unsigned partitions) {
    MeshPlacement m;
    m.rows = p.meshRows;
    m.cols = p.meshCols;
    if (m.rows == 0 || m.cols == 0) {
        unsigned side = 1;
        while (side * side < clusters + partitions) ++side;
        m.rows = m.cols = side;
    }
    const unsigned n = m.rows * m.cols;
    m.mcNodes = parseNodeList(p.meshMcNodes, "noc.mesh.mc_nodes", n);
    m.smNodes = parseNodeList(p.meshSmNodes, "noc.mesh.sm_nodes", n);
    if (!p.meshMcNodes.empty() && m.mcNodes.size() != partitions)
        throw InputError("noc.mesh.mc_nodes: " + std::to_string(m.mcNodes.size()) + " nodes for " +
                         std::to_string(partitions) + " memory partitions");
    if (!p.meshSmNodes.empty() && m.smNodes.size() != clusters)
        throw InputError("noc.mesh.sm_nodes: " + std::to_string(m.smNodes.size()) + " nodes for " +
                         std::to_string(clusters) + " SM clusters (gpu.num_sms / noc.sms_per_cluster)");
    if (p.meshMcNodes.empty()) {
        if (partitions > n)
            throw InputError("noc.mesh.rows: a " + std::to_string(m.rows) + "x" + std::to_string(m.cols) +
                             " mesh has fewer nodes than the " + std::to_string(partitions) + " partitions");
        for (unsigned j = 0; j < partitions; ++j)
            m.mcNodes.push_back(static_cast<unsigned>((uint64_t(2 * j + 1) * n) / (2 * uint64_t(partitions))));
    }
    if (p.meshSmNodes.empty()) {
        const std::set<unsigned> taken(m.mcNodes.begin(), m.mcNodes.end());
        for (unsigned id = 0; id < n && m.smNodes.size() < clusters; ++id)
            if (!taken.count(id)) m.smNodes.push_back(id);
        if (m.smNodes.size() < clusters)
            throw InputError("noc.mesh.rows: a " + std::to_string(m.rows) + "x" + std::to_string(m.cols) +
                             " mesh has " + std::to_string(n) + " nodes, fewer than " + std::to_string(clusters) +
                             " SM clusters + " + std::to_string(partitions) + " partitions");
    }
    return m;
}

} // namespace gpusim
