#pragma once
// Builds the Topology of a subnet from noc.* parameters: for the GPU (SM clusters on one side,
// memory partitions on the other) and for the synthetic-traffic testbench (N terminals that
// all send and receive).
#include <memory>

#include "interconnect/NocParams.hpp"
#include "interconnect/Topology.hpp"

namespace gpusim {

enum class Subnet { Request, Reply };

// Request subnet: sources are the `clusters` SM clusters, sinks the `partitions`; reply subnet:
// the other way round. Both subnets of a NoC have the same geometry. Throws InputError (naming
// the noc.* key) for a geometry that cannot hold the terminals.
std::unique_ptr<Topology> makeGpuSubnet(const NocParams& p, unsigned clusters, unsigned partitions, Subnet which);

// `nodes` terminals, each a source and a sink with the same index: a nodes x nodes crossbar, a
// butterfly with k^n >= nodes ports per side (noc.butterfly.*), or a mesh of noc.mesh.rows x
// noc.mesh.cols nodes (or the square of side sqrt(nodes) when those are 0; nodes must then be a
// square).
std::unique_ptr<Topology> makeSyntheticTopology(const NocParams& p, unsigned nodes);

} // namespace gpusim
