#include "common/JsonFile.hpp"

#include <algorithm>
#include <iterator>

#include "common/SimError.hpp"

namespace gpusim {

nlohmann::json parseJsonText(const std::string& text, const std::string& name, bool comments) {
    try {
        return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/true, comments);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is the 1-based index of the last character read (text.size() + 1 at the end);
        // line and column are counted here from it rather than read back out of the message.
        const size_t end = std::min(e.byte == 0 ? 0 : e.byte - 1, text.size());
        size_t line = 1, column = 1;
        for (size_t i = 0; i < end; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 2: REASON".
        std::string reason = e.what();
        if (const size_t at = reason.find("parse error"); at != std::string::npos) {
            const size_t colon = reason.find(": ", at);
            if (colon != std::string::npos) reason = reason.substr(colon + 2);
        }
        throw InputError(name + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                         ": not valid JSON: " + reason);
    }
}

nlohmann::json parseJsonStream(std::istream& in, const std::string& name, bool comments) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parseJsonText(text, name, comments);
}

} // namespace gpusim
