#pragma once
// The OAWS paper's estimation of Optimal Cached Warps (its Section 4.3.1 and Figure 7), run after
// each divergent load is serviced by the L1D:
//   (A) fully cached: CNT += 1; (B) when CNT reaches Cmax and OCW < Wmax: OCW += 1, CNT = 0.
//   (C) partially cached: CNT -= delta; (E) when CNT reaches 0 and OCW > OCWmin: OCW -= 1,
//       CNT = Cmax.  (D) at OCW = Wmax with CNT = Cmax, or OCW = OCWmin with CNT = 0, CNT stays.
//   delta = 1, or CNT/2 for an associativity-sensitive load.
// Paper numbers: CNT 8-bit (Cmax 255) starting at 128, OCW starting at 2 and never below 2,
// Wmax = warps per SM. Choice where the paper is silent: CNT/2 is rounded up, so CNT = 1 still
// reaches 0 (rounding down would leave CNT stuck at 1 and OCW could never fall).
#include <cstdint>

namespace gpusim {

class OcwEstimator {
public:
    struct Params {
        unsigned cmax = 255;
        unsigned cntInit = 128;
        unsigned ocwInit = 2;
        unsigned ocwMin = 2;
        unsigned wmax = 48;
    };
    OcwEstimator() : OcwEstimator(Params{}) {}
    explicit OcwEstimator(const Params& p);

    // One serviced divergent load. Returns +1 / -1 when OCW changed, else 0.
    int update(bool fullyCached, bool associativitySensitive);
    void setWmax(unsigned wmax);
    void reset();
    unsigned ocw() const { return ocw_; }
    unsigned cnt() const { return cnt_; }
    const Params& params() const { return p_; }

private:
    Params p_;
    unsigned ocw_, cnt_;
};

} // namespace gpusim
