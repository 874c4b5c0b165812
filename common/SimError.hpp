#pragma once
// Error types that the CLI maps to exit statuses. Model code throws; only platforms/ catches.
#include <stdexcept>
#include <string>

namespace gpusim {

// Bad user input: configuration file, --set value, workload or scheduler spec, trace line.
// The message is one line that names the file/key/line. Exit status 2.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The model itself went wrong at run time: watchdog expiry, broken end-of-run invariant,
// protocol violation. Exit status 3.
class ModelError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace gpusim
