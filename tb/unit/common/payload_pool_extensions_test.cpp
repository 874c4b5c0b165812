// A payload returned to the pool leaves its foreign extensions behind by the TLM-2.0 memory
// management rules: one a target attached with set_auto_extension is freed through its own
// free() when the payload is freed; one attached with plain set_extension and never cleared is
// cleared, not freed (its setter owns it); the pool's own GpuExtension stays attached, in place.
// The target is a b_transport model behind a simple_target_socket, called directly (it does not
// wait, so no simulation runs).
#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/GpuExtension.hpp"
#include "common/PayloadPool.hpp"

namespace gpusim {
namespace payload_pool_extensions_test {

// A target's per-transaction annotation, allocated per call and handed to the memory manager.
struct AutoExt : tlm::tlm_extension<AutoExt> {
    static inline int freed = 0;
    tlm_extension_base* clone() const override { return new AutoExt(*this); }
    void copy_from(const tlm_extension_base&) override {}
    void free() override {
        ++freed;
        delete this;
    }
};

// A target's annotation it owns (a member), attached with set_extension and never cleared.
struct OwnedExt : tlm::tlm_extension<OwnedExt> {
    static inline int freed = 0;
    tlm_extension_base* clone() const override { return new OwnedExt(*this); }
    void copy_from(const tlm_extension_base&) override {}
    void free() override { ++freed; }  // never deleted: it is the target's member
};

struct AnnotatingTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<AnnotatingTarget> socket{"socket"};
    OwnedExt owned;
    explicit AnnotatingTarget(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_b_transport(this, &AnnotatingTarget::bTransport);
    }
    void bTransport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
        p.set_auto_extension(new AutoExt);
        p.set_extension(&owned);
        p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
    explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {}
};

TEST(PayloadPool, FreeClearsATargetsExtensionsByTheirRulesAndKeepsOurs) {
    PayloadPool pool;
    Initiator init("init");
    AnnotatingTarget target("target");
    init.socket.bind(target.socket);

    tlm::tlm_generic_payload& p = pool.allocate();
    GpuExtension* ours = findGpuExt(p);
    ASSERT_NE(ours, nullptr);
    p.set_command(tlm::TLM_WRITE_COMMAND);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(p, t);
    ASSERT_NE(p.get_extension<AutoExt>(), nullptr);
    ASSERT_EQ(p.get_extension<OwnedExt>(), &target.owned);

    p.release();  // the last reference: back to the pool
    EXPECT_EQ(pool.outstanding(), 0u);
    EXPECT_EQ(AutoExt::freed, 1);     // freed once, through its own free()
    EXPECT_EQ(OwnedExt::freed, 0);    // not the pool's to free
    EXPECT_EQ(p.get_extension<AutoExt>(), nullptr);
    EXPECT_EQ(p.get_extension<OwnedExt>(), nullptr);
    EXPECT_EQ(p.get_extension<GpuExtension>(), ours);  // ours kept, the same object
    EXPECT_EQ(findGpuExt(p), ours);

    // Reused only after kReuseDistance others were returned: the payload comes back clean.
    std::vector<tlm::tlm_generic_payload*> others;
    for (size_t i = 0; i < PayloadPool::kReuseDistance; ++i) others.push_back(&pool.allocate());
    for (tlm::tlm_generic_payload* o : others) o->release();
    tlm::tlm_generic_payload* reused = nullptr;
    for (size_t i = 0; i <= PayloadPool::kReuseDistance && reused != &p; ++i) reused = &pool.allocate();
    ASSERT_EQ(reused, &p);
    EXPECT_EQ(p.get_extension<AutoExt>(), nullptr);
    EXPECT_EQ(p.get_extension<OwnedExt>(), nullptr);
    EXPECT_EQ(findGpuExt(p), ours);
    EXPECT_EQ(AutoExt::freed, 1);
}

// A target that replaced the pool's GpuExtension with one of its own (set_extension) gets ours
// back on the payload when it is freed; its own is left to it.
TEST(PayloadPool, FreePutsBackOurGpuExtensionIfATargetReplacedIt) {
    PayloadPool pool;
    tlm::tlm_generic_payload& p = pool.allocate();
    GpuExtension* ours = findGpuExt(p);
    GpuExtension theirs;
    p.set_extension(&theirs);
    ASSERT_EQ(p.get_extension<GpuExtension>(), &theirs);
    p.release();
    EXPECT_EQ(p.get_extension<GpuExtension>(), ours);
}

} // namespace payload_pool_extensions_test
} // namespace gpusim
