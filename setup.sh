#!/bin/sh
# Installs the Debian packages gpusim-tlm needs (only those missing), then configures and builds
# it in ./build. Safe to run again: it does nothing that is already done.
#   ./setup.sh            Release-with-debug-info build of the simulator and the testbench
#   BUILD_DIR=... ./setup.sh   build elsewhere
set -eu

cd "$(dirname "$0")"
BUILD_DIR=${BUILD_DIR:-build}
PACKAGES="g++ make cmake pkg-config libsystemc-dev libboost-program-options-dev nlohmann-json3-dev libgtest-dev liblzma-dev clang libclang-rt-14-dev"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing" >&2
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
