#pragma once
// A module that can be spliced into any TLM link of the platform (a protocol checker, a
// transaction tracer, a user's monitor). The platform asks a LinkHook for one per link, by name
// ("sm3->noc", "noc->l2.2", "l2.2->mem"), and binds initiator -> in(), out() -> target.
#include <functional>
#include <memory>
#include <string>

#include <tlm>

namespace gpusim {

class LinkInterposer {
public:
    virtual ~LinkInterposer() = default;
    virtual tlm::tlm_target_socket<32>& in() = 0;
    virtual tlm::tlm_initiator_socket<32>& out() = 0;
};

// Returns nullptr to bind the link directly.
using LinkHook = std::function<std::unique_ptr<LinkInterposer>(const std::string& link)>;

} // namespace gpusim
