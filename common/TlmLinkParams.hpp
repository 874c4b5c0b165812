#pragma once
// How the GPU's ends of its TLM-2.0 AT links behave toward their peers (tlm.*), as plain data:
// declared once with their checks, read from a Config in one place. The member defaults are the
// schema's defaults. GpuOptions::responseCompletion overrides the style link by link.
#include <string>

namespace gpusim {

class Config;
class ParamSchema;

// How an initiator end (an SM, the NoC, an L2 slice) finishes an answer it takes inside the
// BEGIN_RESP call: Completed returns TLM_COMPLETED; EndResp returns TLM_ACCEPTED and sends
// END_RESP on the forward path a delta cycle later, for targets that wait for END_RESP.
enum class ResponseCompletion { Completed, EndResp };

// "completed" or "end_resp", as the parameter spells it.
const char* responseCompletionName(ResponseCompletion c);

struct TlmLinkParams {
    ResponseCompletion responseCompletion = ResponseCompletion::Completed;  // tlm.response_completion

    static void declare(ParamSchema& s);
    static TlmLinkParams from(const Config& c);
};

} // namespace gpusim
