#pragma once
// Pooled generic payloads (tlm_mm_interface): no `new` per transaction. Each payload carries a
// GpuExtension and a line-sized data buffer (so a user's target that writes data has somewhere to
// write). outstanding() is checked at the end of a run: every payload must be back in the pool.
#include <cstdint>
#include <memory>
#include <vector>

#include <tlm>

#include "common/GpuExtension.hpp"

namespace gpusim {

class PayloadPool : public tlm::tlm_mm_interface {
public:
    explicit PayloadPool(unsigned dataBytes = 128) : dataBytes_(dataBytes) {}
    ~PayloadPool() override;

    // A payload with refcount 1 (acquired here), extension reset and data buffer attached.
    tlm::tlm_generic_payload& allocate();
    void free(tlm::tlm_generic_payload* p) override;

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
    std::vector<Slot*> free_;
    uint64_t allocated_ = 0, freed_ = 0;
};

} // namespace gpusim
