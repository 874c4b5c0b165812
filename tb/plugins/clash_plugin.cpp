// A plugin registering a built-in's name ("gto"): refused, naming both (plugin_test.cpp).
#include "scheduler/PolicyPlugin.hpp"

namespace {
class NotGto : public gpusim::SchedulerPolicy {
public:
    std::string name() const override { return "gto"; }
    void order(unsigned, std::vector<unsigned>&, const gpusim::SmView&) override {}
};
} // namespace

GPUSIM_POLICY_PLUGIN(registrar) {
    registrar.add({"gto", "a second gto", {}, [](const std::map<std::string, double>&) {
                       return std::make_unique<NotGto>();
                   }});
}
