#pragma once
// A small XML well-formedness check for tests of generated SVG (no XML library in the build's
// dependencies): one root element, tags properly nested and closed, attributes quoted and not
// repeated within an element, no '<' in attribute values, every '&' a known entity or a
// character reference. Returns "" when well-formed, else what is wrong and at which byte.
// Left out: DTDs, namespaces' meaning, character classes of names beyond the ASCII ones.
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace gpusim::tb {

inline std::string xmlWellFormedError(const std::string& s) {
    size_t i = 0;
    const auto at = [&](const std::string& why) { return why + " at byte " + std::to_string(i); };
    const auto nameChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.';
    };
    const auto skipSpace = [&] {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    };
    const auto entity = [&]() -> bool {  // s[i] == '&'
        const size_t semi = s.find(';', i);
        if (semi == std::string::npos || semi - i > 10) return false;
        const std::string e = s.substr(i + 1, semi - i - 1);
        bool ok = e == "amp" || e == "lt" || e == "gt" || e == "quot" || e == "apos";
        if (!ok && e.size() > 1 && e[0] == '#') {
            const bool hex = e[1] == 'x';
            const std::string digits = e.substr(hex ? 2 : 1);
            ok = !digits.empty();
            for (char c : digits) ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)));
        }
        if (ok) i = semi + 1;
        return ok;
    };
    std::vector<std::string> open;
    bool rootSeen = false;
    while (i < s.size()) {
        if (s[i] != '<') {
            if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) return at("text outside the root element");
            if (s[i] == '&') {
                if (!entity()) return at("bad entity");
                continue;
            }
            ++i;
            continue;
        }
        if (s.compare(i, 4, "<!--") == 0) {
            const size_t e = s.find("-->", i + 4);
            if (e == std::string::npos) return at("unterminated comment");
            i = e + 3;
            continue;
        }
        if (s.compare(i, 2, "<?") == 0) {
            const size_t e = s.find("?>", i + 2);
            if (e == std::string::npos) return at("unterminated processing instruction");
            i = e + 2;
            continue;
        }
        if (s.compare(i, 9, "<![CDATA[") == 0) {
            if (open.empty()) return at("CDATA outside the root element");
            const size_t e = s.find("]]>", i + 9);
            if (e == std::string::npos) return at("unterminated CDATA");
            i = e + 3;
            continue;
        }
        const bool closing = s.compare(i, 2, "</") == 0;
        i += closing ? 2 : 1;
        const size_t n0 = i;
        while (i < s.size() && nameChar(s[i])) ++i;
        const std::string name = s.substr(n0, i - n0);
        if (name.empty()) return at("a tag without a name");
        if (closing) {
            skipSpace();
            if (i >= s.size() || s[i] != '>') return at("'>' expected after </" + name);
            ++i;
            if (open.empty() || open.back() != name)
                return at("</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">"));
            open.pop_back();
            continue;
        }
        if (open.empty() && rootSeen) return at("a second root element <" + name + ">");
        std::set<std::string> attrs;
        for (;;) {
            const size_t before = i;
            skipSpace();
            if (i >= s.size()) return at("unterminated tag <" + name);
            if (s[i] == '>') {
                ++i;
                open.push_back(name);
                rootSeen = true;
                break;
            }
            if (s.compare(i, 2, "/>") == 0) {
                i += 2;
                rootSeen = true;
                break;
            }
            if (i == before) return at("space expected between attributes of <" + name);
            const size_t a0 = i;
            while (i < s.size() && nameChar(s[i])) ++i;
            const std::string attr = s.substr(a0, i - a0);
            if (attr.empty()) return at("bad character in tag <" + name);
            if (!attrs.insert(attr).second) return at("attribute " + attr + " repeated in <" + name);
            skipSpace();
            if (i >= s.size() || s[i] != '=') return at("'=' expected after attribute " + attr);
            ++i;
            skipSpace();
            if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return at("quoted value expected for " + attr);
            const char q = s[i++];
            while (i < s.size() && s[i] != q) {
                if (s[i] == '<') return at("'<' in the value of " + attr);
                if (s[i] == '&') {
                    if (!entity()) return at("bad entity in the value of " + attr);
                } else {
                    ++i;
                }
            }
            if (i >= s.size()) return at("unterminated value of " + attr);
            ++i;
        }
    }
    if (!open.empty()) return "unclosed <" + open.back() + "> at the end";
    if (!rootSeen) return "no root element";
    return "";
}

} // namespace gpusim::tb
