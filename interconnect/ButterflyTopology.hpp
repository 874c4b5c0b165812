#pragma once
// A k-ary n-fly: n stages of k^(n-1) routers of k x k, k^n terminal ports on each side, one
// path between any source and sink. Destination-tag routing: at stage s a packet for sink
// terminal d takes output port = digit (n-1-s) of d in base k (most significant first).
// Wiring: output port p of router r at stage s goes to the router of stage s+1 whose index is
// r with base-k digit (n-2-s) replaced by p, entering it at the input port equal to that old
// digit. After stage s the router index holds the top s+1 digits of d, so the last stage's
// router is d / k and its port d % k reaches terminal d.
// Terminals: `sources` (`sinks`) of them are spread evenly over the k^n ports of their side
// (terminal i at port floor(i * k^n / count)), so a partially filled butterfly loads its first
// and last stage routers evenly (fermi30: 15 clusters and 6 partitions on a 4-ary 2-fly).
#include "interconnect/Topology.hpp"

namespace gpusim {

class ButterflyTopology : public Topology {
public:
    // stages == 0: the fewest with k^n >= max(sources, sinks).
    ButterflyTopology(unsigned radix, unsigned stages, unsigned sources, unsigned sinks);
    static unsigned stagesFor(unsigned radix, unsigned terminals);

    TopologyKind kind() const override { return TopologyKind::Butterfly; }
    std::string describe() const override;
    unsigned route(unsigned router, unsigned dst) const override;

    unsigned radix() const { return k_; }
    unsigned stages() const { return n_; }
    unsigned ports() const { return ports_; }  // k^n per side
    unsigned sinkPort(unsigned dst) const { return sinkPort_[dst]; }

private:
    unsigned k_, n_, ports_, perStage_;
    std::vector<unsigned> sinkPort_;  // sink terminal -> port number 0..k^n-1
};

} // namespace gpusim
