#pragma once
// One request in the FR-FCFS controller's queue: decoded once at arrival, then served by one
// or more column commands (a 128-byte line on a 64-byte burst takes two).
#include <cstdint>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"

namespace gpusim {

struct DramRequest {
    enum class Outcome : uint8_t { Hit, Miss, Conflict };  // row found open / closed / other row open

    // The 64-bit members first and the small ones packed at the end: 80 bytes where the
    // declaration order of the meanings took 96, and a finished request is erased from the
    // middle of the queue, moving every younger one (issue 19).
    uint64_t seq = 0;           // arrival order (age): ties are broken by it, never by pointers
    Payload* payload = nullptr;
    DramCoord coord;
    uint64_t nextColumn = 0;    // byte offset in the row of the next burst
    uint64_t eligibleCycle = 0; // first DRAM edge strictly after its arrival
    uint64_t acceptPs = 0;
    uint64_t firstCmdCycle = 0; // valid once started
    unsigned burstsLeft = 1;    // column commands still to issue
    bool write = false;
    bool started = false;       // a command was issued for it
    Outcome outcome = Outcome::Hit;
};

} // namespace gpusim
