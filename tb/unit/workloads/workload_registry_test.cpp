#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "workloads/BasicWorkload.hpp"
#include "workloads/Workload.hpp"

namespace workload_registry_test {

using namespace gpusim;

namespace {

// The InputError text for `spec`, or "" if it did not throw.
std::string errorOf(const std::string& spec) {
    try {
        WorkloadRegistry::builtin().create(spec, 1);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(WorkloadRegistry, BuiltinHasVectorAddAndAtax) {
    const auto& r = WorkloadRegistry::builtin();
    ASSERT_NE(r.find("vectoradd"), nullptr);
    ASSERT_NE(r.find("atax"), nullptr);
    EXPECT_EQ(r.find("nope"), nullptr);
    for (const auto& info : r.all()) {
        EXPECT_FALSE(info.description.empty()) << info.name;
        EXPECT_EQ(info.description.find('\n'), std::string::npos) << info.name;
        for (const auto& p : info.params) EXPECT_FALSE(p.description.empty()) << info.name << "." << p.name;
    }
}

TEST(WorkloadRegistry, UnknownWorkload) {
    EXPECT_EQ(errorOf("foo"), "--workload: unknown workload 'foo' (see gpusim list workloads)");
}

TEST(WorkloadRegistry, UnknownParameter) {
    EXPECT_EQ(errorOf("atax:q=1"), "--workload: atax: unknown parameter 'q' (known: n)");
}

TEST(WorkloadRegistry, NotAnInteger) {
    EXPECT_EQ(errorOf("atax:n=abc"), "--workload: atax: n: 'abc' is not an integer");
    EXPECT_EQ(errorOf("atax:n=12x"), "--workload: atax: n: '12x' is not an integer");
    EXPECT_EQ(errorOf("atax:n=1.5"), "--workload: atax: n: '1.5' is not an integer");
    EXPECT_EQ(errorOf("atax:n=+64"), "--workload: atax: n: '+64' is not an integer");
}

TEST(WorkloadRegistry, OutOfRange) {
    EXPECT_EQ(errorOf("atax:n=0"), "--workload: atax: n: 0 is out of range 32 .. 16384");
    EXPECT_EQ(errorOf("atax:n=16385"), "--workload: atax: n: 16385 is out of range 32 .. 16384");
    EXPECT_EQ(errorOf("atax:n=-5"), "--workload: atax: n: -5 is out of range 32 .. 16384");
    EXPECT_EQ(errorOf("atax:n=99999999999999999999"),
              "--workload: atax: n: 99999999999999999999 is out of range 32 .. 16384");
    EXPECT_EQ(errorOf("vectoradd:n=0"), "--workload: vectoradd: n: 0 is out of range 1 .. 67108864");
}

TEST(WorkloadRegistry, MalformedSpecIsAnInputError) {
    EXPECT_NE(errorOf("atax:n"), "");
    EXPECT_NE(errorOf("atax:n=1,n=2"), "");
    EXPECT_NE(errorOf(":n=1"), "");
}

TEST(WorkloadRegistry, DefaultsAreFilledIn) {
    auto atax = WorkloadRegistry::builtin().create("atax", 1);
    EXPECT_EQ(atax->name(), "atax");
    EXPECT_EQ(atax->params(), nlohmann::json({{"n", 1024}}));
    auto va = WorkloadRegistry::builtin().create("vectoradd", 1);
    EXPECT_EQ(va->params(), nlohmann::json({{"n", 65536}}));
}

TEST(WorkloadRegistry, GivenValuesAreUsed) {
    auto w = WorkloadRegistry::builtin().create("atax:n=300", 1);
    EXPECT_EQ(w->params(), nlohmann::json({{"n", 300}}));
    EXPECT_EQ(w->kernels().size(), 2u);
    auto hex = WorkloadRegistry::builtin().create("atax:n=0x100", 1);
    EXPECT_EQ(hex->params()["n"], 256);
}

TEST(WorkloadRegistry, ListingNamesEveryWorkloadAndDefault) {
    const std::string text = WorkloadRegistry::builtin().listing();
    EXPECT_NE(text.find("vectoradd"), std::string::npos);
    EXPECT_NE(text.find("n=65536"), std::string::npos);
    EXPECT_NE(text.find("atax"), std::string::npos);
    EXPECT_NE(text.find("n=1024"), std::string::npos);
    EXPECT_NE(text.find("32 .. 16384"), std::string::npos);
}

TEST(WorkloadRegistry, RejectsBadRegistrations) {
    WorkloadRegistry r;
    auto make = [](const std::map<std::string, int64_t>&, uint64_t) -> std::unique_ptr<Workload> {
        return std::make_unique<BasicWorkload>("w", nlohmann::json::object(),
                                               std::vector<std::unique_ptr<Kernel>>{});
    };
    r.add({"w", "a test workload", {{"k", 5, 1, 10, "a parameter"}}, make});
    EXPECT_THROW(r.add({"w", "again", {}, make}), std::logic_error);
    EXPECT_THROW(r.add({"v", "bad default", {{"k", 50, 1, 10, "a parameter"}}, make}), std::logic_error);
    EXPECT_THROW(r.add({"u", "no factory", {}, nullptr}), std::logic_error);
    EXPECT_EQ(r.create("w", 0)->name(), "w");
}

TEST(WorkloadRegistry, TheKernelLibraryIsComplete) {
    // The benchmarks issue 5 asks for, by registry name.
    const char* names[] = {"vectoradd", "atax",          "bicg", "mvt",   "gesummv",    "syrk",    "syr2k",
                           "2mm",       "3dconv",        "fdtd2d", "bfs", "kmeans",     "streamcluster",
                           "srad",      "backprop",      "pathfinder", "hotspot", "spmv", "lps", "matmul",
                           "blackscholes", "invertedindex", "histogram"};
    const auto& r = WorkloadRegistry::builtin();
    for (const char* n : names) EXPECT_NE(r.find(n), nullptr) << n;
}

TEST(WorkloadRegistry, EveryBuiltinNamesItsSourceAndClass) {
    for (const auto& info : WorkloadRegistry::builtin().all()) {
        EXPECT_FALSE(info.source.empty()) << info.name;
        EXPECT_NE(info.workloadClass, WorkloadClass::Unspecified) << info.name;
    }
    const std::string text = WorkloadRegistry::builtin().listing();
    EXPECT_NE(text.find("bfs  "), std::string::npos);
    EXPECT_NE(text.find("    class: memory-divergent  source: Rodinia 3.1, bfs"), std::string::npos);
    EXPECT_NE(text.find("    class: barrier-heavy  source: CUDA SDK, matrixMul"), std::string::npos);
    EXPECT_NE(text.find("    class: compute  source: CUDA SDK, BlackScholes"), std::string::npos);
    EXPECT_NE(text.find("    class: coherent  source: CUDA SDK, vectorAdd"), std::string::npos);
}

TEST(WorkloadRegistry, ListingOfAWorkloadWithoutClassOmitsTheLine) {
    WorkloadRegistry r;
    r.add({"w", "a test workload", {}, [](const std::map<std::string, int64_t>&, uint64_t) -> std::unique_ptr<Workload> {
               return nullptr;
           }});
    EXPECT_EQ(r.listing(), "w  a test workload\n");
    EXPECT_STREQ(toString(WorkloadClass::BarrierHeavy), "barrier-heavy");
    EXPECT_STREQ(toString(WorkloadClass::Unspecified), "unspecified");
}

TEST(WorkloadRegistry, ParameterRelationsAreInputErrors) {
    EXPECT_EQ(errorOf("srad:rows=100"), "--workload: srad: rows and cols must be multiples of 16 (BLOCK_SIZE), got 100 x 256");
    EXPECT_EQ(errorOf("matmul:n=100"), "--workload: matmul: n: must be a multiple of tile (16), got 100");
    EXPECT_EQ(errorOf("backprop:in=20"), "--workload: backprop: in must be a multiple of 16, got 20");
    EXPECT_NE(errorOf("streamcluster:points=40,centers=50"), "");
    EXPECT_NE(errorOf("spmv:rows=40,nnz_per_row=50"), "");
}

} // namespace workload_registry_test
