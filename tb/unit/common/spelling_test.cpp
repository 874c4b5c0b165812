// Spelling (common/Spelling.hpp): the optimal-string-alignment distance on hand-counted pairs, and
// which names are suggested (near enough, ties, none for a short or unlike word).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Spelling.hpp"

namespace spelling_test {

using namespace gpusim;

TEST(Spelling, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
    EXPECT_EQ(editDistance("platform", "platform"), 0u);
    EXPECT_EQ(editDistance("platfrom", "platform"), 1u);  // "ro" <-> "or": one swap
    EXPECT_EQ(editDistance("l1d.mshr_entrie", "l1d.mshr_entries"), 1u);  // one insertion
    EXPECT_EQ(editDistance("kitten", "sitting"), 3u);  // k->s, e->i, + g
    EXPECT_EQ(editDistance("", "abc"), 3u);
    EXPECT_EQ(editDistance("abc", ""), 3u);
    EXPECT_EQ(editDistance("GTO", "gto"), 0u);  // case ignored
    // Optimal string alignment edits no substring twice: "ca" -> "abc" is 3 (delete c, keep a,
    // insert b, insert c), not the 2 of unrestricted Damerau-Levenshtein (swap, then insert b).
    EXPECT_EQ(editDistance("ca", "abc"), 3u);
}

TEST(Spelling, SuggestsTheNearestNamesWithinAThirdOfTheLength) {
    const std::vector<std::string> keys = {"l1d.ways", "l1d.mshr_entries", "l2.ways", "l1i.ways"};
    EXPECT_EQ(nearestNames("l1d.mshr_entrie", keys), std::vector<std::string>{"l1d.mshr_entries"});
    // "l1x.ways" (8 characters, limit 2) is 1 from l1d.ways and l1i.ways, 2 from l2.ways: the two
    // at distance 1, in the candidates' order.
    EXPECT_EQ(nearestNames("l1x.ways", keys), (std::vector<std::string>{"l1d.ways", "l1i.ways"}));
    // "ways" (4 characters, limit 1) is 4 from "l1d.ways": nothing.
    EXPECT_TRUE(nearestNames("ways", keys).empty());
    // One letter: a distance of 1 is the whole word, no suggestion ("m" for "n").
    EXPECT_TRUE(nearestNames("m", {"n"}).empty());
    // Case only: a suggestion (the exact name was looked up already and not found).
    EXPECT_EQ(nearestNames("GTO", {"lrr", "gto"}), std::vector<std::string>{"gto"});
    EXPECT_TRUE(nearestNames("gto", {"gto"}).empty());
}

TEST(Spelling, DidYouMeanFormatsOneOrSeveralNames) {
    EXPECT_EQ(didYouMean("--platfrom", {"--platform", "--plugin"}), "; did you mean '--platform'?");
    EXPECT_EQ(didYouMean("fermi1", {"fermi15", "fermi30", "gtx480"}), "; did you mean 'fermi15'?");
    EXPECT_EQ(didYouMean("l1x.ways", {"l1d.ways", "l1i.ways"}), "; did you mean 'l1d.ways' or 'l1i.ways'?");
    EXPECT_EQ(didYouMean("ab", {"ax", "ay", "az", "aw"}), "; did you mean 'ax', 'ay' or 'az'?");  // at most 3
    EXPECT_EQ(didYouMean("nosuchplatform", {"fermi15", "fermi30", "gtx480"}), "");
}

} // namespace spelling_test
