// JsonFile (common/JsonFile.hpp): a syntax error names the file, the line and the column where
// the parser stopped (counted by hand below) and nlohmann's reason; comments only when allowed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"

namespace json_file_test {

using namespace gpusim;

std::string errorOf(const std::string& text, bool comments = false) {
    try {
        parseJsonText(text, "x.json", comments);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(JsonFile, NamesLineAndColumnOfASyntaxError) {
    // Line 1 "{", line 2 "  "a": 1,", line 3 "}": after the comma a key is expected and the '}'
    // in column 1 of line 3 is not one.
    EXPECT_EQ(errorOf("{\n  \"a\": 1,\n}\n"),
              "x.json: line 3, column 1: not valid JSON: syntax error while parsing object key - unexpected '}'; "
              "expected string literal");
    // A missing comma: {"a": 1 "b": 2} is '{' 1, '"a"' 2-4, ':' 5, ' ' 6, '1' 7, ' ' 8, '"b"' 9-11;
    // the parser reads the whole token "b" before refusing it: it stops at its closing quote, 11.
    EXPECT_EQ(errorOf("{\"a\": 1 \"b\": 2}"),
              "x.json: line 1, column 11: not valid JSON: syntax error while parsing object - unexpected string "
              "literal; expected '}'");
    // Cut short: the position is one past the last character (line 2, column 1 after "{\n").
    EXPECT_EQ(errorOf("{\n"),
              "x.json: line 2, column 1: not valid JSON: syntax error while parsing object key - unexpected end of "
              "input; expected string literal");
}

TEST(JsonFile, CommentsOnlyWhenAllowed) {
    const std::string text = "// a platform\n{\"name\": \"x\"}\n";
    EXPECT_EQ(parseJsonText(text, "x.json", /*comments=*/true)["name"], "x");
    EXPECT_NE(errorOf(text).find("x.json: line 1, column 1: not valid JSON: "), std::string::npos) << errorOf(text);
    std::istringstream in("{\"a\": [1, 2]}");
    EXPECT_EQ(parseJsonStream(in, "s")["a"][1], 2);
}

} // namespace json_file_test
