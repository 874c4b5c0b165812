#pragma once
// Writes JSON text straight into a string, in exactly the layout nlohmann::json's dump(2) gives
// (two-space indentation, "key": value, numbers as nlohmann prints them), for the one large
// document a run writes: its statistics. Building that document as an nlohmann::json first
// (a std::map node per statistic), then printing and freeing it, cost a streaming run 3.5 % of
// its host instructions (issue 19). The caller supplies keys in sorted order, as nlohmann's
// objects hold them; nothing here checks that. Strings, and keys other than printable ASCII, are
// printed through nlohmann (its escaping and UTF-8 check).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpusim {

class JsonText {
public:
    // `indent`: the column of the enclosing value's first line, as when the text is spliced
    // into a document dumped with indentation 2 at that depth.
    JsonText(std::string& out, unsigned indent) : out_(out), indent_(indent) {}

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }
    // An object member's key; its value follows.
    void key(const std::string& k);
    // A member with a number as its value.
    void member(const std::string& k, uint64_t v) {
        key(k);
        value(v);
    }
    void member(const std::string& k, double v) {
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

    std::string& out_;
    unsigned indent_;
    // Per open object or array: whether it has no element yet (it closes on the same line).
    std::vector<bool> levelEmpty_;
    bool afterKey_ = false;
};

} // namespace gpusim
