#pragma once
// Pooled generic payloads (tlm_mm_interface): no `new` per transaction. Each payload carries a
// GpuExtension and a line-sized data buffer (so a user's target that writes data has somewhere to
// write). outstanding() is checked at the end of a run: every payload must be back in the pool.
// Returned payloads are reused first-in first-out, and only once kReuseDistance others are free:
// a user's target that answers a request again after the first answer finds the payload still
// free, or in use on some other link, and the link's initiator port refuses the answer
// (common/AtPorts.hpp). Immediate reuse (last in, first out) would often hand the payload to the
// next request on the same link, whose answer the duplicate would then pass for.
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
    size_t created() const { return all_.size(); }

private:
    // Deriving from the payload lets free() find its slot with a static_cast.
    struct Slot : tlm::tlm_generic_payload {
        GpuExtension ext;
        std::vector<unsigned char> data;
    };
    unsigned dataBytes_;
    std::vector<std::unique_ptr<Slot>> all_;
    RingQueue<Slot*> free_;  // oldest freed first
    uint64_t allocated_ = 0, freed_ = 0;
};

} // namespace gpusim
