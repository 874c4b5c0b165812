#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/Config.hpp"

namespace config_test {

using namespace gpusim;

namespace {

ParamSchema schema() {
    ParamSchema s;
    s.addInt("l1d.size_bytes", 32768, "bytes", 1024, 1 << 20, "L1D capacity")
        .addInt("l1d.line_bytes", 128, "bytes", 32, 256, "line")
        .addInt("l1d.ways", 8, "", 1, 64, "assoc")
        .addDouble("sm.clock_mhz", 1400, "MHz", 1, 10000, "clock")
        .addBool("sim.check", false, "check")
        .addEnum("l1d.alloc", "on-miss", {"on-miss", "on-fill"}, "policy")
        .addCheck([](const Config& c) {
            if (c.getInt("l1d.size_bytes") % (c.getInt("l1d.line_bytes") * c.getInt("l1d.ways")))
                c.fail("l1d.size_bytes", "not divisible by line x ways", {"l1d.line_bytes", "l1d.ways"});
        });
    return s;
}

std::string writeTemp(const std::string& name, const std::string& text) {
    auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p) << text;
    return p.string();
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(Config, DefaultsAndTypedGetters) {
    auto s = schema();
    Config c(s);
    EXPECT_EQ(c.getInt("l1d.ways"), 8);
    EXPECT_DOUBLE_EQ(c.getDouble("sm.clock_mhz"), 1400.0);
    EXPECT_FALSE(c.getBool("sim.check"));
    EXPECT_EQ(c.getString("l1d.alloc"), "on-miss");
    EXPECT_EQ(c.origin("l1d.ways"), "default");
}

enum class Alloc { OnMiss, OnFill };

TEST(Config, GetChoiceMapsNamesAndRefusesOneTheCodeDoesNotHandle) {
    ParamSchema s = schema();
    Config c(s);
    EXPECT_EQ(c.getChoice<Alloc>("l1d.alloc", {{"on-miss", Alloc::OnMiss}, {"on-fill", Alloc::OnFill}}), Alloc::OnMiss);
    c.setFromString("l1d.alloc=on-fill");
    EXPECT_EQ(c.getChoice<Alloc>("l1d.alloc", {{"on-miss", Alloc::OnMiss}, {"on-fill", Alloc::OnFill}}), Alloc::OnFill);
    // "on-fill" passes the schema, but this reader only knows "on-miss": an error, not OnMiss.
    try {
        c.getChoice<Alloc>("l1d.alloc", {{"on-miss", Alloc::OnMiss}});
        FAIL() << "expected a ModelError";
    } catch (const ModelError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "l1d.alloc: 'on-fill' is allowed by the schema but not handled by the code reading it");
    }
}

TEST(Config, LoadsNestedAndDottedKeys) {
    auto s = schema();
    Config c(s);
    auto f = writeTemp("cfg_ok.json",
                       R"({"name":"t","params":{"l1d":{"ways":4},"sm.clock_mhz":700}})");
    c.loadFile(f);
    EXPECT_EQ(c.getInt("l1d.ways"), 4);
    EXPECT_DOUBLE_EQ(c.getDouble("sm.clock_mhz"), 700.0);
    EXPECT_EQ(c.platformName(), "t");
    EXPECT_EQ(c.origin("l1d.ways"), f);
}

TEST(Config, RejectsUnknownKeyNamingFileAndKey) {
    auto s = schema();
    Config c(s);
    auto f = writeTemp("cfg_unknown.json", R"({"params":{"l1d":{"wayz":4}}})");
    EXPECT_EQ(errorOf([&] { c.loadFile(f); }),
              f + ": l1d.wayz: unknown parameter; did you mean 'l1d.ways'? (see gpusim config --reference)");
    // Nothing within a third of the length: no suggestion.
    EXPECT_EQ(errorOf([&] { c.setFromString("cache.size=1"); }),
              "--set: cache.size: unknown parameter (see gpusim config --reference)");
}

TEST(Config, RejectsWrongTypeAndRange) {
    auto s = schema();
    Config c(s);
    EXPECT_EQ(errorOf([&] { c.setFromString("l1d.ways=abc"); }),
              "--set: l1d.ways: cannot parse 'abc' as integer");
    EXPECT_EQ(errorOf([&] { c.setFromString("l1d.ways=0"); }),
              "--set: l1d.ways: 0 is out of range 1 .. 64");
    EXPECT_EQ(errorOf([&] { c.setFromString("l1d.ways=2.5"); }),
              "--set: l1d.ways: expected an integer, got 2.5");
    EXPECT_EQ(errorOf([&] { c.setFromString("sim.check=1"); }),
              "--set: sim.check: expected true or false, got 1");
    EXPECT_EQ(errorOf([&] { c.setFromString("l1d.alloc=lazy"); }),
              "--set: l1d.alloc: 'lazy' is not one of: on-miss, on-fill");
    EXPECT_EQ(errorOf([&] { c.setFromString("novalue"); }), "--set: 'novalue': expected key=value");
}

TEST(Config, CrossChecksNameTheOrigin) {
    auto s = schema();
    Config c(s);
    c.setFromString("l1d.size_bytes=3000");
    EXPECT_EQ(errorOf([&] { c.validate(); }), "--set: l1d.size_bytes: not divisible by line x ways");
}

// The rule is about l1d.size_bytes, but the user changed l1d.ways: the message names that --set
// (as typed), and says where l1d.size_bytes came from. 32768 % (128 x 3 = 384) = 128, not 0.
TEST(Config, CrossCheckNamesTheSetOfARelatedKey) {
    auto s = schema();
    Config c(s);
    auto f = writeTemp("cfg_geometry.json", R"({"params":{"l1d.size_bytes":32768}})");
    c.loadFile(f);
    c.setFromString("l1d.ways=3");
    EXPECT_EQ(errorOf([&] { c.validate(); }),
              "--set l1d.ways=3: l1d.size_bytes: not divisible by line x ways (l1d.size_bytes from " + f + ")");
    // Two related --sets are both named, in the rule's order (128 x 7 = 896 does not divide 32768).
    c.setFromString("l1d.line_bytes=128");
    c.setFromString("l1d.ways=7");
    EXPECT_EQ(errorOf([&] { c.validate(); }),
              "--set l1d.line_bytes=128, --set l1d.ways=7: l1d.size_bytes: not divisible by line x ways "
              "(l1d.size_bytes from " + f + ")");
}

TEST(Config, RejectsMalformedFiles) {
    auto s = schema();
    Config c(s);
    auto bad = writeTemp("cfg_bad.json", "{ not json");
    // "{ not json": the parser reads "no" (no literal starts so) and stops at the 'o', column 4.
    EXPECT_EQ(errorOf([&] { c.loadFile(bad); }),
              bad + ": line 1, column 4: not valid JSON: syntax error while parsing object key - invalid literal; "
                    "last read: '{ no'; expected string literal");
    auto array = writeTemp("cfg_array.json", "[1, 2]");
    EXPECT_EQ(errorOf([&] { c.loadFile(array); }),
              array + ": expected a JSON object {\"name\", \"base\", \"params\", ...}");
    EXPECT_EQ(errorOf([&] { c.loadFile("/nonexistent/x.json"); }),
              "/nonexistent/x.json: cannot open platform file");
    auto top = writeTemp("cfg_top.json", R"({"parms":{}})");
    EXPECT_NE(errorOf([&] { c.loadFile(top); }).find(": parms: unknown top-level key"),
              std::string::npos);
}

TEST(Config, BaseFileIsLoadedFirstThenOverridden) {
    auto s = schema();
    Config c(s);
    writeTemp("cfgbase.json", R"({"name":"cfgbase","params":{"l1d.ways":4,"sm.clock_mhz":700}})");
    auto derived = writeTemp("cfgderived.json",
                             R"({"name":"d","base":"cfgbase","params":{"l1d.ways":16}})");
    c.loadFile(derived);
    EXPECT_EQ(c.getInt("l1d.ways"), 16);
    EXPECT_DOUBLE_EQ(c.getDouble("sm.clock_mhz"), 700.0);
    EXPECT_EQ(c.platformName(), "d");
}

TEST(Config, MarkdownListsEveryParameter) {
    auto s = schema();
    auto md = s.markdown();
    for (const auto& [name, d] : s.all()) EXPECT_NE(md.find("`" + name + "`"), std::string::npos);
    EXPECT_NE(md.find("| `l1d.ways` | integer | 8 |  | 1 .. 64 | assoc |"), std::string::npos);
}

} // namespace config_test
