#pragma once
// A rows x cols 2D mesh, one 5-port router per node (local, east, west, south, north; node id
// = row * cols + col, row 0 at the top). Dimension-order (XY) routing: along the row to the
// destination column first, then along the column; deadlock-free without virtual channels.
// A node may host one source terminal and one sink terminal of a subnet (both through its
// local port: on the request subnet an SM cluster injects and a memory partition ejects there).
// Edge routers keep their unconnected ports (never routed to).
#include "interconnect/Topology.hpp"

namespace gpusim {

class MeshTopology : public Topology {
public:
    enum Port : unsigned { Local = 0, East = 1, West = 2, South = 3, North = 4, kPorts = 5 };

    MeshTopology(unsigned rows, unsigned cols, const std::vector<unsigned>& sourceNodes,
                 const std::vector<unsigned>& sinkNodes);

    TopologyKind kind() const override { return TopologyKind::Mesh; }
    std::string describe() const override;
    unsigned route(unsigned router, unsigned dst) const override;
    std::string portName(unsigned router, unsigned outPort) const override;

    unsigned rows() const { return rows_; }
    unsigned cols() const { return cols_; }
    unsigned sourceNode(unsigned src) const { return sources_[src].router; }
    unsigned sinkNode(unsigned dst) const { return sinks_[dst].router; }
    // One line per row: S (an SM cluster / source), M (a partition / sink), B (both), . (empty).
    std::string layout() const;

private:
    unsigned rows_, cols_;
};

// Where the SM clusters and memory partitions sit, from noc.mesh.* (see NocParams): explicit
// node lists, or partitions spread evenly over the node ids and SM clusters on the remaining
// nodes in id order; rows = cols = 0 picks the smallest square that fits. Throws InputError
// naming the key on a count mismatch or a mesh too small.
struct MeshPlacement {
    unsigned rows = 0, cols = 0;
    std::vector<unsigned> smNodes;  // per SM cluster
    std::vector<unsigned> mcNodes;  // per partition

    static MeshPlacement fromParams(const NocParams& p, unsigned clusters, unsigned partitions);
};

} // namespace gpusim
