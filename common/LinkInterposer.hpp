#pragma once
// A module that can be spliced into any TLM link of the platform (a protocol checker, a
// transaction tracer, a user's monitor). The platform asks a LinkHook for one per link, by name
// ("sm3->noc", "noc->l2.2", "l2.2->mem"), and binds initiator -> in(), out() -> target.
#include <cctype>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

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

// A legal SystemC module name for an interposer on `link`: SystemC rejects '-', '>' and '.' in
// names, so "->" becomes "_to_" and any other non-alphanumeric character '_'. The prefix keeps
// two interposers on one link apart ("check_" + "sm3->noc" -> "check_sm3_to_noc").
inline std::string interposerModuleName(std::string_view prefix, const std::string& link) {
    std::string out(prefix);
    for (size_t i = 0; i < link.size(); ++i) {
        if (link.compare(i, 2, "->") == 0) {
            out += "_to_";
            ++i;
        } else {
            const unsigned char c = static_cast<unsigned char>(link[i]);
            out += std::isalnum(c) ? link[i] : '_';
        }
    }
    return out;
}

} // namespace gpusim
