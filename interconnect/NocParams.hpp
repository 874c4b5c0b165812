#pragma once
// The noc.* parameters, declared once and read once. Kept apart from the crossbar so the later
// router family (butterfly, mesh) shares the same channel/buffer vocabulary and declarations.
// Defaults follow the fermi15 (GTX 480-class) baseline of GPGPU-Sim: a 1400 MHz interconnect
// clock, 32-byte flits and 8-entry input buffers (its config_fermi_islip.icnt); see
// docs/interconnect.md for the latency default.
#include <cstdint>

#include <systemc>

#include "common/Config.hpp"

namespace gpusim {

struct NocParams {
    double clockMhz = 0;
    unsigned flitBytes = 0;
    unsigned inputQueuePackets = 0;   // per input port per subnet
    unsigned outputQueuePackets = 0;  // per output port per subnet, in flight included
    unsigned latencyCycles = 0;       // router pipeline + wire, per traversal
    unsigned readRequestFlits = 0;

    static void declare(ParamSchema& s);
    static NocParams fromConfig(const Config& cfg);

    // The period of the NoC clock domain the platform builds for the crossbar.
    sc_core::sc_time period() const;
};

} // namespace gpusim
