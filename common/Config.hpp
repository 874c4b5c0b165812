#pragma once
// Configuration as data. Every parameter is declared once (name, type, default, unit, range,
// description) in a ParamSchema; a Config holds the resolved values for one run, loaded from a
// platform JSON file plus command-line overrides, and remembers where each value came from so an
// error can name the file and key. Cross-parameter rules (cache geometry, ...) are registered as
// checks next to the declarations of the unit they constrain.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"

namespace gpusim {

enum class ParamType { Int, Double, Bool, String, Enum };

struct ParamDecl {
    std::string name;        // dotted, e.g. "l1d.mshr_entries"
    ParamType type = ParamType::Int;
    nlohmann::json defaultValue;
    std::string unit;        // "cycles", "bytes", "MHz", "" for counts/flags
    double min = 0;          // inclusive, Int/Double only
    double max = 0;          // inclusive, Int/Double only
    std::vector<std::string> choices;  // Enum only
    std::string description;
};

class Config;

class ParamSchema {
public:
    using Check = std::function<void(const Config&)>;

    // Declaration helpers; each returns *this so a unit can declare its block fluently.
    ParamSchema& addInt(const std::string& name, int64_t def, const std::string& unit, int64_t min,
                        int64_t max, const std::string& desc);
    ParamSchema& addDouble(const std::string& name, double def, const std::string& unit, double min,
                           double max, const std::string& desc);
    ParamSchema& addBool(const std::string& name, bool def, const std::string& desc);
    ParamSchema& addEnum(const std::string& name, const std::string& def,
                         std::vector<std::string> choices, const std::string& desc);
    ParamSchema& addString(const std::string& name, const std::string& def, const std::string& desc);
    // A rule involving several parameters; throws InputError via Config::fail.
    ParamSchema& addCheck(Check check);

    const ParamDecl* find(const std::string& name) const;
    const std::map<std::string, ParamDecl>& all() const { return decls_; }
    const std::vector<Check>& checks() const { return checks_; }

    // The configuration reference (docs/configuration.md) generated from the declarations.
    std::string markdown() const;

private:
    void add(ParamDecl d);
    std::map<std::string, ParamDecl> decls_;
    std::vector<Check> checks_;
};

class Config {
public:
    explicit Config(const ParamSchema& schema);

    // Loads a platform file: {"name": ..., "description": ..., "params": {...}}; params may be
    // nested objects or dotted keys. Unknown keys, wrong types and out-of-range values throw
    // InputError("FILE: KEY: reason").
    void loadFile(const std::string& path);
    // How a "base" name that is not a file next to the deriving one is found (platforms/ sets
    // its platform search path here; common/ knows no folders). Returns a path or throws.
    using BaseResolver = std::function<std::string(const std::string& name)>;
    void setBaseResolver(BaseResolver r) { baseResolver_ = std::move(r); }
    // Applies "key=value" from the command line; the value is parsed per the key's type.
    void setFromString(const std::string& assignment, const std::string& origin = "--set");
    void set(const std::string& key, const nlohmann::json& value, const std::string& origin);
    // Runs every registered cross-parameter check.
    void validate() const;

    int64_t getInt(const std::string& key) const;
    double getDouble(const std::string& key) const;
    bool getBool(const std::string& key) const;
    const std::string& getString(const std::string& key) const;
    // An enumerated key's value as the caller's type, from the pairs of name and value it knows.
    // The schema has already refused names outside its list; a name it allows that `choices`
    // lacks means the schema and the code disagree: a ModelError, never a quiet default.
    template <class E>
    E getChoice(const std::string& key, std::initializer_list<std::pair<std::string_view, E>> choices) const {
        const std::string& v = getString(key);
        for (const auto& [name, value] : choices)
            if (name == v) return value;
        throw ModelError(key + ": '" + v + "' is allowed by the schema but not handled by the code reading it");
    }

    // Where a key's value came from: a file path, "--set" or "default".
    const std::string& origin(const std::string& key) const;
    // Throws InputError("ORIGIN: KEY: REASON") naming where `key`'s value came from. A rule over
    // several keys lists the others in `related`: when `key` came from a file or its default but
    // a related key was changed with --set, that --set is named instead (the user's change broke
    // the rule, not the shipped file), followed by where `key` came from.
    [[noreturn]] void fail(const std::string& key, const std::string& reason,
                           std::initializer_list<std::string> related = {}) const;

    const std::string& platformName() const { return platformName_; }
    const std::string& platformDescription() const { return platformDescription_; }
    nlohmann::json toJson() const;  // every key, resolved, sorted by name
    const ParamSchema& schema() const { return schema_; }

private:
    struct Entry {
        nlohmann::json value;
        std::string origin;
    };
    const Entry& entry(const std::string& key, ParamType type) const;
    void flatten(const nlohmann::json& obj, const std::string& prefix, const std::string& origin);

    const ParamSchema& schema_;
    std::map<std::string, Entry> values_;
    std::string platformName_ = "default";
    std::vector<std::string> loading_;   // files being loaded (base chain), to detect cycles
    BaseResolver baseResolver_;
    std::set<std::string> fileKeys_;     // keys set by the file being read, to reject duplicates
    std::map<std::string, std::string> commandLine_;  // key -> "--set key=text" of its last --set
    std::string platformDescription_;
};

} // namespace gpusim
