#pragma once
// Writes JSON text straight into a string, in exactly the layout nlohmann::json's dump(2) gives
// (two-space indentation, "key": value, numbers as nlohmann prints them), for the one large
// document a run writes: its statistics. Building that document as an nlohmann::json first
// (a std::map node per statistic), then printing and freeing it, cost a streaming run 3.5 % of
// its host instructions (issue 19). The caller supplies keys in sorted order, as nlohmann's
// objects hold them; nothing here checks that. Strings, and keys other than printable ASCII, are
// printed through nlohmann (its escaping and UTF-8 check). The string holds a top-level value
// once the call that completes it returns (and everything written when the writer is destroyed).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpusim {

class JsonText {
public:
    // `indent`: the column of the enclosing value's first line, as when the text is spliced
    // into a document dumped with indentation 2 at that depth.
    JsonText(std::string& out, unsigned indent) : out_(out), indent_(indent) {}
    JsonText(const JsonText&) = delete;
    JsonText& operator=(const JsonText&) = delete;
    ~JsonText() { flush(); }

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }
    // An object member's key; its value follows.
    void key(std::string_view k);
    // A member with a number as its value.
    void member(std::string_view k, uint64_t v) {
        key(k);
        value(v);
    }
    void member(std::string_view k, double v) {
        key(k);
        value(v);
    }
    void value(uint64_t v);
    // Non-finite values print as null, as nlohmann does.
    void value(double v);
    // Any nlohmann value, laid out as its dump(2) would be at this place (statistics of a kind
    // without a writer of their own).
    void value(const nlohmann::json& v);

private:
    void open(char c);
    void close(char c);
    // Before a value: the comma and line break of an element after the first, and the
    // indentation of an array element (an object member's key has done both).
    void element();
    // After a value: a complete top-level value is handed to the string.
    void endValue() {
        if (levelEmpty_.empty()) flush();
    }
    // [","] "\n" and `spaces` blanks.
    void breakLine(bool comma, size_t spaces);

    // The text is gathered in buf_ and appended to out_ a block at a time, and whenever a
    // top-level value is complete (so `out` holds it when the call that ended it returns). An
    // append to the string per token (three a line: a separator, a fill, the token) was most of
    // the cost of the 17,000-line statistics text (issue 19).
    static constexpr size_t kBuffer = 8192;
    // Room for `n` more characters in buf_ (n <= kBuffer), flushing if needed; where they go.
    char* room(size_t n) {
        if (len_ + n > kBuffer) flush();
        return buf_ + len_;
    }
    void put(char c) {
        *room(1) = c;
        ++len_;
    }
    void put(std::string_view s) {
        if (s.size() > kBuffer) [[unlikely]]
            return putLong(s);
        std::memcpy(room(s.size()), s.data(), s.size());
        len_ += s.size();
    }
    void putLong(std::string_view s);
    void flush() {
        out_.append(buf_, len_);
        len_ = 0;
    }

    std::string& out_;
    unsigned indent_;
    // Per open object or array: whether it has no element yet (it closes on the same line).
    // Bytes, not std::vector<bool>'s bits: read and written at every element.
    std::vector<uint8_t> levelEmpty_;
    bool afterKey_ = false;
    size_t len_ = 0;
    char buf_[kBuffer];
};

} // namespace gpusim
