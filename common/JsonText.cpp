#include "common/JsonText.hpp"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace gpusim {

void JsonText::element() {
    if (afterKey_) {  // an object member: key() wrote the separator and the indentation
        afterKey_ = false;
        return;
    }
    if (levelEmpty_.empty()) return;  // the top-level value
    out_ += levelEmpty_.back() ? "\n" : ",\n";
    levelEmpty_.back() = false;
    out_.append(indent_ + 2 * levelEmpty_.size(), ' ');
}

void JsonText::open(char c) {
    element();
    out_ += c;
    levelEmpty_.push_back(true);
}

void JsonText::close(char c) {
    const bool empty = levelEmpty_.back();
    levelEmpty_.pop_back();
    if (!empty) {
        out_ += '\n';
        out_.append(indent_ + 2 * levelEmpty_.size(), ' ');
    }
    out_ += c;
}

void JsonText::key(const std::string& k) {
    element();
    // Printable ASCII without quote or backslash is printed as it is; anything else goes through
    // nlohmann's escaping (and its UTF-8 check), so that the text is the same.
    bool plain = true;
    for (const char ch : k)
        if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
            plain = false;
            break;
        }
    if (plain) {
        out_ += '"';
        out_ += k;
        out_ += '"';
    } else {
        out_ += nlohmann::json(k).dump();
    }
    out_ += ": ";
    afterKey_ = true;
}

void JsonText::value(uint64_t v) {
    element();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, static_cast<size_t>(r.ptr - buf));
}

void JsonText::value(double v) {
    element();
    if (!std::isfinite(v)) {
        out_ += "null";
        return;
    }
    // A whole number under 1e15 (a histogram's bucket edges, most sums) comes out of nlohmann's
    // shortest round-trip formatting as its digits and ".0" (below 1e15 it keeps fixed notation):
    // printed so directly, without the digit search (issue 19). Zero goes the long way, for "-0.0".
    if (v != 0 && std::fabs(v) < 1e15 && v == std::trunc(v)) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(v));
        out_.append(buf, static_cast<size_t>(r.ptr - buf));
        out_ += ".0";
        return;
    }
    // nlohmann's own shortest round-trip formatting (what dump() calls), so "47.0" stays "47.0".
    char buf[64];
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, static_cast<size_t>(end - buf));
}

void JsonText::value(const nlohmann::json& v) {
    using T = nlohmann::json::value_t;
    switch (v.type()) {
    case T::object:
        beginObject();
        for (const auto& [k, e] : v.items()) {
            key(k);
            value(e);
        }
        endObject();
        return;
    case T::array:
        beginArray();
        for (const auto& e : v) value(e);
        endArray();
        return;
    case T::number_unsigned: value(v.get<uint64_t>()); return;
    case T::number_float: value(v.get<double>()); return;
    default:  // null, boolean, string, signed integer: one token, printed by nlohmann (binary
              // values, which nlohmann lays out on several lines, do not occur in statistics)
        element();
        out_ += v.dump();
        return;
    }
}

} // namespace gpusim
