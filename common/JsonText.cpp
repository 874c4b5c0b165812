#include "common/JsonText.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

namespace gpusim {

namespace {

// ",\n" and then blanks: a line break with its indentation is a slice of it.
constexpr size_t kPadBlanks = 128;
constexpr auto kPad = [] {
    std::array<char, 2 + kPadBlanks> a{};
    a[0] = ',';
    a[1] = '\n';
    for (size_t i = 2; i < a.size(); ++i) a[i] = ' ';
    return a;
}();

} // namespace

void JsonText::putLong(std::string_view s) {
    flush();
    out_.append(s);
}

void JsonText::breakLine(bool comma, size_t spaces) {
    if (spaces <= kPadBlanks) {
        put({kPad.data() + (comma ? 0 : 1), (comma ? 2 : 1) + spaces});
        return;
    }
    put(comma ? ",\n" : "\n");
    for (size_t i = 0; i < spaces; ++i) put(' ');
}

void JsonText::element() {
    if (afterKey_) {  // an object member: key() wrote the separator and the indentation
        afterKey_ = false;
        return;
    }
    if (levelEmpty_.empty()) return;  // the top-level value
    const bool first = levelEmpty_.back() != 0;
    levelEmpty_.back() = 0;
    breakLine(!first, indent_ + 2 * levelEmpty_.size());
}

void JsonText::open(char c) {
    element();
    put(c);
    levelEmpty_.push_back(1);
}

void JsonText::close(char c) {
    const bool empty = levelEmpty_.back() != 0;
    levelEmpty_.pop_back();
    if (!empty) breakLine(false, indent_ + 2 * levelEmpty_.size());
    put(c);
    endValue();
}

void JsonText::key(std::string_view k) {
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
        put('"');
        put(k);
        put('"');
    } else {
        put(nlohmann::json(std::string(k)).dump());
    }
    put(": ");
    afterKey_ = true;
}

void JsonText::value(uint64_t v) {
    element();
    constexpr size_t kDigits = 20;
    char* at = room(kDigits);
    len_ = static_cast<size_t>(std::to_chars(at, at + kDigits, v).ptr - buf_);
    endValue();
}

void JsonText::value(double v) {
    element();
    if (!std::isfinite(v)) {
        put("null");
        endValue();
        return;
    }
    // A whole number under 1e15 (a histogram's bucket edges, most sums) comes out of nlohmann's
    // shortest round-trip formatting as its digits and ".0" (below 1e15 it keeps fixed notation):
    // printed so directly, without the digit search (issue 19). Zero goes the long way, for "-0.0".
    if (v != 0 && std::fabs(v) < 1e15 && v == std::trunc(v)) {
        constexpr size_t kChars = 20;  // a sign, 15 digits and ".0"
        char* at = room(kChars);
        char* end = std::to_chars(at, at + kChars, static_cast<int64_t>(v)).ptr;
        *end++ = '.';
        *end++ = '0';
        len_ = static_cast<size_t>(end - buf_);
        endValue();
        return;
    }
    // nlohmann's own shortest round-trip formatting (what dump() calls), so "47.0" stays "47.0".
    constexpr size_t kChars = 64;
    char* at = room(kChars);
    len_ = static_cast<size_t>(nlohmann::detail::to_chars(at, at + kChars, v) - buf_);
    endValue();
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
        put(v.dump());
        endValue();
        return;
    }
}

} // namespace gpusim
