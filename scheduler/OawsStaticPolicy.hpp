#pragma once
// Static OAWS (the OAWS paper, Section 4.2): a load whose PC the DLC classifies as divergent is
// predicted to miss Div_pred x SMR times, Div_pred being the warp's active threads (32 lanes at
// SMR 50% need 16 free MSHR entries); coherent loads are predicted one miss. Eq. 1 qualifies.
#include "scheduler/OawsPolicy.hpp"

namespace gpusim {

class OawsStaticPolicy : public OawsPolicy {
public:
    struct Params {
        double smr = 0.5;
        unsigned dlcEntries = 32;
        unsigned coherentLines = 2;
    };
    explicit OawsStaticPolicy(const Params& p)
        : OawsPolicy(p.dlcEntries, p.coherentLines, 1.5), smr_(p.smr) {}
    std::string name() const override { return "oaws-static"; }
    unsigned predictMisses(unsigned warp, const SmView& sm) override;

private:
    double smr_;
};

} // namespace gpusim
