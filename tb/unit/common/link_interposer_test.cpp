// interposerModuleName: the module names the protocol checker and the tracer give their
// interposers must be legal SystemC names whatever the link is called.
#include <gtest/gtest.h>

#include "common/LinkInterposer.hpp"

namespace gpusim {
namespace link_interposer_test {

TEST(LinkInterposerName, ArrowBecomesToAndDotsUnderscores) {
    EXPECT_EQ(interposerModuleName("check_", "sm3->noc"), "check_sm3_to_noc");
    EXPECT_EQ(interposerModuleName("trace_", "noc->l2.2"), "trace_noc_to_l2_2");
    EXPECT_EQ(interposerModuleName("trace_", "l2.2->mem"), "trace_l2_2_to_mem");
}

TEST(LinkInterposerName, LoneDashOrAngleIsNotAnArrow) {
    EXPECT_EQ(interposerModuleName("x_", "a-b>c"), "x_a_b_c");
    EXPECT_EQ(interposerModuleName("x_", ""), "x_");
}

} // namespace link_interposer_test
} // namespace gpusim
