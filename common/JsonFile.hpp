#pragma once
// Parsing JSON that a person wrote or may have edited (platform files, sweep specs, reference
// and study files, results tables): a syntax error is an InputError that names the file and the
// line and column where the parser stopped, with nlohmann's reason ("FILE: line 3, column 12:
// not valid JSON: syntax error while parsing object - unexpected '}'; expected string literal").
// Files only this program writes and reads back (a job's result being written) keep their own
// handling: for them a parse failure means "not finished", not a mistake to point at.
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

namespace gpusim {

// `name` is what the message starts with (usually the path); `comments` allows // and /* */.
nlohmann::json parseJsonText(const std::string& text, const std::string& name, bool comments = false);
// Reads the whole stream, then as parseJsonText.
nlohmann::json parseJsonStream(std::istream& in, const std::string& name, bool comments = false);

} // namespace gpusim
