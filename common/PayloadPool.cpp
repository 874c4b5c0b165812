#include "common/PayloadPool.hpp"

#include <cstring>

namespace gpusim {

PooledPayload::~PooledPayload() = default;

PayloadPool::~PayloadPool() {
    for (size_t i = 0; i < created_; ++i) {
        Slot& s = blocks_[i / kBlockSlots].slots[i % kBlockSlots];
        s.clear_extension(&s.ext);  // the extension belongs to the slot, not the payload
        s.set_mm(nullptr);
    }
}

PayloadPool::Slot& PayloadPool::newSlot() {
    const size_t k = created_ % kBlockSlots;
    if (k == 0)
        blocks_.push_back({std::make_unique<Slot[]>(kBlockSlots),
                           std::unique_ptr<unsigned char[]>(new unsigned char[kBlockSlots * dataBytes_])});
    Block& b = blocks_.back();
    Slot& s = b.slots[k];
    s.data = b.data.get() + k * dataBytes_;
    std::memset(s.data, 0, dataBytes_);
    s.set_mm(this);
    s.set_extension(&s.ext);
    ++created_;
    return s;
}

tlm::tlm_generic_payload& PayloadPool::allocate() {
    Slot* s;
    if (free_.size() <= kReuseDistance) {
        s = &newSlot();
    } else {
        s = free_.front();
        free_.pop_front();
    }
    s->ext = GpuExtension{};
    tlm::tlm_generic_payload& gp = *s;
    gp.set_data_ptr(s->data);
    gp.set_data_length(dataBytes_);
    gp.set_streaming_width(dataBytes_);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp.acquire();
    ++allocated_;
    return gp;
}

void PayloadPool::free(tlm::tlm_generic_payload* p) {
    Slot* s = static_cast<Slot*>(p);
    // Extensions a target attached: those it set with set_auto_extension (or gave up with
    // release_extension) are freed by reset(), through their own free(), as the TLM-2.0 memory
    // management rules have it; one set with plain set_extension and not cleared is cleared here but
    // not freed (it is its setter's to free). Ours stays, put back should a target have replaced it.
    s->reset();
    const unsigned ours = GpuExtension::ID;
    const unsigned n = tlm::max_num_extensions();
    if (n > 1) {
        s->resize_extensions();  // a type registered after this payload was built (a plugin's)
        for (unsigned i = 0; i < n; ++i)
            if (i != ours && s->get_extension(i)) s->set_extension(i, nullptr);
    }
    if (s->get_extension(ours) != &s->ext) s->set_extension(&s->ext);
    free_.push_back(s);
    ++freed_;
}

} // namespace gpusim
