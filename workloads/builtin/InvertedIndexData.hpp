#pragma once
// Input data of the invertedindex workload: generated HTML-like text split into map records the
// way Mars's InvertedIndex main() does, and a scanner that replays the map function's state
// machine (map.cu) on one record, step by step, so the kernel's per-lane control flow and
// addresses follow the text exactly.
//
// Text: lines of 4 .. 16 tokens; a token is a word (70 %), a link `<a href="http://www.W.com/W.html">W</a>`
// (15 %) or another tag such as <p>, </b>, <img src="..."> (15 %). Records: starting at offset 0,
// take record_bytes, extend to the next '\n' (inclusive), repeat (Mars uses 1024).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/SeededRandom.hpp"

namespace gpusim {

struct InvertedIndexData {
    enum State : uint8_t { Start, InTag, InATag, FoundHref, StartLink, kStates };

    std::string text;               // the file, '\0'-terminated
    std::vector<uint32_t> offset;   // II_VAL_T.block_offset
    std::vector<uint32_t> size;     // II_VAL_T.block_size
    std::vector<uint32_t> links;    // links found in each record (what the count pass counts)
    std::vector<uint32_t> firstLink;  // exclusive prefix sum of links: the record's output slot

    uint64_t records() const { return offset.size(); }
    uint64_t totalLinks() const { return firstLink.empty() ? 0 : firstLink.back() + links.back(); }

    // One iteration of the map loop (`for (j = 0; j < size; j++) switch (state) ...`).
    struct Step {
        State state;          // the case taken
        uint32_t j;           // position in the record
        uint8_t hrefLoads;    // InATag on 'h': characters of "href\0" compared (loaded)
        bool found;           // InATag: "href" matched
        uint32_t linkLength;  // StartLink: characters before the closing '"'
    };

    class Scanner {
    public:
        Scanner(const InvertedIndexData& d, uint64_t record)
            : buf_(d.text.data() + d.offset[record]), size_(d.size[record]) {}
        // The next iteration, or false once j reaches the record size.
        bool next(Step& s) {
            if (j_ >= size_) return false;
            s = Step{state_, j_, 0, false, 0};
            const char c = buf_[j_];
            switch (state_) {
            case Start: state_ = c == '<' ? InTag : Start; break;
            case InTag: state_ = c == 'a' ? InATag : c == ' ' ? InTag : Start; break;
            case InATag:
                if (c == 'h') {
                    static constexpr char kHref[5] = {'h', 'r', 'e', 'f', '\0'};
                    unsigned x = 0;
                    while (x < 5 && kHref[x] == buf_[j_ + x]) ++x;
                    s.hrefLoads = static_cast<uint8_t>(x < 5 ? x + 1 : 5);
                    s.found = x < 5 && kHref[x] == '\0';
                    if (s.found) {
                        state_ = FoundHref;
                        j_ += 3;
                    } else {
                        state_ = Start;
                    }
                } else {
                    state_ = c == ' ' ? InATag : Start;
                }
                break;
            case FoundHref: state_ = (c == ' ' || c == '=') ? FoundHref : c == '"' ? StartLink : Start; break;
            case StartLink: {
                uint32_t len = 0;
                while (buf_[j_ + len] != '"') ++len;
                s.linkLength = len;
                j_ += len;
                state_ = Start;
                break;
            }
            case kStates: break;
            }
            ++j_;
            return true;
        }

    private:
        const char* buf_;
        uint32_t size_;
        uint32_t j_ = 0;
        State state_ = Start;
    };

    static InvertedIndexData generate(uint64_t records, uint64_t recordBytes, uint64_t seed) {
        InvertedIndexData d;
        Rng rng(seed);
        auto word = [&] {
            std::string w;
            const uint64_t len = uint64_t(rng.between(2, 9));
            for (uint64_t i = 0; i < len; ++i) w += char('a' + rng.below(26));
            return w;
        };
        static constexpr std::array<std::string_view, 6> kTags = {"<p>", "</p>", "<b>", "</b>", "<br>",
                                                                   "<img src=\"pic.png\">"};
        auto appendLine = [&] {
            const uint64_t tokens = uint64_t(rng.between(4, 16));
            for (uint64_t t = 0; t < tokens; ++t) {
                if (t) d.text += ' ';
                const uint64_t kind = rng.below(100);
                if (kind < 70) d.text += word();
                else if (kind < 85) d.text += "<a href=\"http://www." + word() + ".com/" + word() + ".html\">" + word() + "</a>";
                else d.text += kTags[rng.below(kTags.size())];
            }
            d.text += '\n';
        };
        // Mars's record split: record_bytes, extended through the next newline; text is generated
        // as the split needs it.
        uint64_t start = 0;
        while (d.offset.size() < records) {
            uint64_t p = start + recordBytes;
            while (p >= d.text.size() || d.text[p] != '\n') {
                if (p >= d.text.size()) appendLine();
                else ++p;
            }
            d.offset.push_back(static_cast<uint32_t>(start));
            d.size.push_back(static_cast<uint32_t>(p + 1 - start));
            start = p + 1;
        }
        appendLine();  // a look-ahead past the last record reads real text
        d.text += '\0';
        for (uint64_t r = 0; r < records; ++r) {
            Scanner s(d, r);
            Step step;
            uint32_t n = 0;
            while (s.next(step)) n += step.state == StartLink;
            d.firstLink.push_back(r == 0 ? 0 : d.firstLink.back() + d.links.back());
            d.links.push_back(n);
        }
        return d;
    }
};

} // namespace gpusim
