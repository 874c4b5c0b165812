#pragma once
// One router with an input port per source and an output port per sink: a single-stage
// crossbar (a 1-fly). With virtual output queues each input port has one VC per output and a
// packet is injected into the VC of its destination, so a blocked head never holds back a
// packet for another output; with FIFO input queues (noc.vcs VCs, normally 1) head-of-line
// blocking is real.
#include "interconnect/Topology.hpp"

namespace gpusim {

class CrossbarTopology : public Topology {
public:
    CrossbarTopology(unsigned sources, unsigned sinks, bool voq);

    TopologyKind kind() const override { return TopologyKind::Crossbar; }
    std::string describe() const override;
    unsigned route(unsigned, unsigned dst) const override { return dst; }
    unsigned inputVcs(const PortRef& in, unsigned vcs) const override;
    int injectionVc(unsigned src, unsigned dst) const override;
    std::string portName(unsigned, unsigned outPort) const override;
    bool voq() const { return voq_; }

private:
    bool voq_;
};

} // namespace gpusim
