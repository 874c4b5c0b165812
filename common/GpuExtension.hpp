#pragma once
// The one TLM extension the model attaches to its payloads: the GPU-side facts a NoC, L2 or
// DRAM model (ours or a user's) may want, without parsing addresses. Owned by the payload pool
// (one per pooled payload, reused), so it is never auto-deleted.
#include <cstdint>
#include <stdexcept>
#include <typeinfo>

#include <tlm>

#include "common/StoreChunks.hpp"

namespace gpusim {

enum class AccessKind : uint8_t { Read, Write, Writeback };

// Which of the SM's read-only caches sent a line read (its answer goes back there).
enum class ReadOnlyCache : uint8_t { None, Constant, Texture };

inline const char* accessKindName(AccessKind k) {
    switch (k) {
    case AccessKind::Read: return "read";
    case AccessKind::Write: return "write";
    case AccessKind::Writeback: return "writeback";
    }
    return "?";
}

struct GpuExtension : tlm::tlm_extension<GpuExtension> {
    uint64_t requestId = 0;   // unique per run; the answer carries the same id
    int smId = -1;            // originating SM, -1 for L2-originated traffic
    int warpId = -1;
    uint64_t pc = 0;
    AccessKind kind = AccessKind::Read;
    int partition = -1;       // destination memory partition (address map)
    int srcPort = -1;         // set by the NoC: the input port the request came from
    uint32_t bytes = 0;       // payload bytes that matter (a store's touched bytes)
    uint32_t chunks = 0;      // a store's 32-byte chunks of its line (bit i: bytes 32i..32i+31);
                              // 0: not known, the whole line (reads, and stores of other sources)
    uint64_t issueTime = 0;   // ps, when the originator sent it
    bool l2Hit = false;       // set by the L2 on the answer, for statistics
    bool instruction = false; // a read of an instruction line (an L1I miss), counted apart at the L2
    ReadOnlyCache readOnly = ReadOnlyCache::None;  // a constant- or texture-cache miss (a data read at the L2)
    // A global atomic's line request (issue 18): the L2 slice reads the line (fetching it on a
    // miss), occupies its read-modify-write unit and leaves the line dirty. kind Read: ATOM, the
    // answer carries the old values (data_length bytes); kind Write: RED, only acknowledged.
    bool atomic = false;
    uint32_t atomicLanes = 0; // lanes the request updates (distinct addresses: the SM splits
                              // lanes on one address into separate requests)

    tlm_extension_base* clone() const override { return new GpuExtension(*this); }
    void copy_from(const tlm_extension_base& other) override {
        *this = static_cast<const GpuExtension&>(other);
    }
};

// A payload of the model's pool (common/PayloadPool.hpp): the pool attaches the extension it
// holds in place, once, when it builds the payload.
struct PooledPayload final : tlm::tlm_generic_payload {
    GpuExtension ext;
    unsigned char* data = nullptr;  // the line-sized data buffer
    ~PooledPayload() override;      // out of line: the type's vtable and type_info in one place
};

// The payload's GpuExtension, or null. A pool payload's in-place extension is read directly,
// the payload told by its dynamic type: get_extension() is a call into libsystemc, made about
// a dozen times per memory access by the ports, the NoC and the L2 (1 % of a run, issue 19).
// Any other payload (a user's, or the pool's type seen through a second copy of its type_info
// in another shared object) is asked the usual way. What the fast path assumes: nobody replaces
// or clears the extension the pool attached (the pool's payloads are the model's own; a target
// sees them but does not own them).
inline GpuExtension* findGpuExt(const tlm::tlm_generic_payload& p) {
    if (&typeid(p) == &typeid(PooledPayload)) [[likely]]
        return &const_cast<GpuExtension&>(static_cast<const PooledPayload&>(p).ext);
    GpuExtension* e = nullptr;
    p.get_extension(e);
    return e;
}

// Cold and out of line: the message's code kept out of gpuExt(), so that it inlines.
[[noreturn, gnu::cold, gnu::noinline]] inline void missingGpuExtension() {
    throw std::logic_error("payload without GpuExtension");
}

inline GpuExtension& gpuExt(tlm::tlm_generic_payload& p) {
    GpuExtension* e = findGpuExt(p);
    if (!e) [[unlikely]]
        missingGpuExtension();
    return *e;
}

} // namespace gpusim
