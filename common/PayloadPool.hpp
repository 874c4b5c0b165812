#pragma once
// Pooled generic payloads (tlm_mm_interface): no `new` per transaction. Each payload carries a
// GpuExtension and a line-sized data buffer (so a user's target that writes data has somewhere to
// write). outstanding() is checked at the end of a run: every payload must be back in the pool.
// Returned payloads are reused first-in first-out, and only once kReuseDistance others are free:
// a user's target that answers a request again after the first answer finds the payload still
// free, or in use on some other link, and the link's initiator port refuses the answer
// (common/AtPorts.hpp). Immediate reuse (last in, first out) would often hand the payload to the
// next request on the same link, whose answer the duplicate would then pass for.
// A freed payload is reset by the TLM-2.0 memory-management rules: extensions a target attached
// with set_auto_extension (or release_extension) are freed through their own free(), any other
// foreign extension is detached without being freed (its setter owns it), and the pool's own
// GpuExtension stays attached.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <tlm>

#include "common/GpuExtension.hpp"
#include "common/RingQueue.hpp"

namespace gpusim {

class PayloadPool : public tlm::tlm_mm_interface {
public:
    explicit PayloadPool(unsigned dataBytes = 128) : dataBytes_(dataBytes) {}
    ~PayloadPool() override;

    // A payload with refcount 1 (acquired here), extension reset and data buffer attached.
    tlm::tlm_generic_payload& allocate();
    void free(tlm::tlm_generic_payload* p) override;

    // Payloads freed since one is reused: a duplicate answer arriving within this many frees of
    // the first one is always caught (about 0.3 MB of payloads, created once).
    static constexpr size_t kReuseDistance = 1024;

    uint64_t outstanding() const { return allocated_ - freed_; }
    size_t created() const { return created_; }  // payloads handed out for the first time

private:
    // Deriving from the payload lets free() find its slot with a static_cast, and findGpuExt()
    // its extension (common/GpuExtension.hpp); data: dataBytes_ in its block's buffer.
    using Slot = PooledPayload;
    // Slots come in blocks, built together, with one data buffer per block: a payload made
    // alone cost two allocations and a zero fill, and two frees at the end, about 1,400 host
    // instructions in all for each of the 1,700-1,900 payloads of a bench run (issue 19). A
    // block's slots are handed out in order; the last block's unused ones are only built.
    static constexpr size_t kBlockSlots = 64;
    struct Block {
        std::unique_ptr<Slot[]> slots;
        std::unique_ptr<unsigned char[]> data;
    };
    Slot& newSlot();

    unsigned dataBytes_;
    std::vector<Block> blocks_;
    size_t created_ = 0;
    RingQueue<Slot*> free_;  // oldest freed first
    uint64_t allocated_ = 0, freed_ = 0;
};

} // namespace gpusim
