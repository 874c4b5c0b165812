#include "common/TlmLinkParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

const char* responseCompletionName(ResponseCompletion c) {
    return c == ResponseCompletion::EndResp ? "end_resp" : "completed";
}

void TlmLinkParams::declare(ParamSchema& s) {
    s.addEnum("tlm.response_completion", "completed", {"completed", "end_resp"},
              "How the GPU's initiator ends (SM->NoC, NoC->L2, L2->memory) finish an answer they take "
              "inside the BEGIN_RESP call: completed returns TLM_COMPLETED; end_resp returns TLM_ACCEPTED "
              "and sends END_RESP on the forward path a delta cycle later, for a target that waits for "
              "END_RESP. An answer annotated with a delay, or one the unit holds, is always finished with "
              "END_RESP (docs/cosimulation.md)");
}

TlmLinkParams TlmLinkParams::from(const Config& c) {
    TlmLinkParams p;
    p.responseCompletion = c.getChoice<ResponseCompletion>(
        "tlm.response_completion",
        {{"completed", ResponseCompletion::Completed}, {"end_resp", ResponseCompletion::EndResp}});
    return p;
}

} // namespace gpusim
