#pragma once
// A Workload that is just data: a name, its resolved parameters and its kernels. Built-in
// workloads construct one of these rather than each defining a class.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "workloads/Workload.hpp"

namespace gpusim {

class BasicWorkload final : public Workload {
public:
    BasicWorkload(std::string name, nlohmann::json params, std::vector<std::unique_ptr<Kernel>> kernels)
        : name_(std::move(name)), params_(std::move(params)), kernels_(std::move(kernels)) {}

    const std::string& name() const override { return name_; }
    nlohmann::json params() const override { return params_; }
    const std::vector<std::unique_ptr<Kernel>>& kernels() const override { return kernels_; }

private:
    std::string name_;
    nlohmann::json params_;
    std::vector<std::unique_ptr<Kernel>> kernels_;
};

} // namespace gpusim
