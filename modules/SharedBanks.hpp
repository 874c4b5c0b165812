#pragma once
// Shared-memory bank conflicts (issue 18): how many passes through the banks one warp's shared
// access needs. Shared memory is sm.shared_banks banks of sm.shared_bank_bytes-wide words, word w
// in bank w mod banks; a bank delivers one word per pass, and any number of lanes reading the same
// word are served by that one delivery (Fermi's multicast: NVIDIA's CUDA C Programming Guide,
// compute capability 2.x, "Shared Memory"; GPGPU-Sim's Fermi configuration
// -gpgpu_shmem_limited_broadcast 0). So a part of the warp takes as many passes as the largest
// number of distinct words any one bank is asked for.
// A pass delivers at most banks x bank_bytes bytes (128 on Fermi), so wide accesses are split by
// lanes into parts that fit: lanes per part = the largest power of two with lanes x access bytes
// <= banks x bank_bytes, at most the warp. On Fermi that is the whole warp for 1-4 byte accesses,
// each half-warp for 8-byte and each quarter-warp for 16-byte ones, the guide's rule for 64- and
// 128-bit accesses; the parts' passes add up. (The same rule gives compute capability 1.x's
// half-warp requests with 16 banks.) A lane's access touches every word its bytes overlap.
// Left out: the guide's remark that most 128-bit accesses take one extra pass on Fermi even when
// no quarter-warp conflicts. GPGPU-Sim differs in looking at one word per lane and, in its Fermi
// configuration, the whole warp at once (-gpgpu_shmem_warp_parts 1); for 8-byte accesses at
// stride 8 or 16 both rules give the same count (2 and 4).
#include <cstdint>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class SharedBanks {
public:
    SharedBanks(unsigned banks, unsigned bankBytes);
    // Passes of `inst` (a shared load or store) through the banks; at least 1 (an instruction
    // without active lanes still goes through the unit once).
    unsigned passes(const WarpInstruction& inst);
    // Lanes served together by one set of passes for an access of `accessBytes` per lane.
    unsigned lanesPerPart(unsigned accessBytes) const;

private:
    unsigned banks_, bankBytes_;
    // Scratch for one part: the distinct words seen, chained per bank (head_ per bank, next_ per
    // word), and the count per bank; reset after each part through the words seen.
    std::vector<uint64_t> word_;
    std::vector<int32_t> next_;
    std::vector<int32_t> head_;
    std::vector<uint32_t> count_;
};

} // namespace gpusim
