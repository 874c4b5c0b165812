#!/bin/sh
# Installs the Debian packages gpusim-tlm needs (only those missing), then configures and builds
# it in ./build. Safe to run again: it does nothing that is already done.
#   ./setup.sh            Release-with-debug-info build of the simulator (the gpusim executable)
#   ./setup.sh --tests    ... and everything else: the testbench, benchmarks (what CI runs)
#   BUILD_DIR=... ./setup.sh   build elsewhere
set -eu

cd "$(dirname "$0")"
BUILD_DIR=${BUILD_DIR:-build}
TARGET="--target gpusim gpusim_python"  # gpusim_python: what `import gpusim` uses (docs/extending.md)
case "${1:-}" in
    "") ;;
    --tests) TARGET="" ;;
    *) echo "setup.sh: unknown option '$1' (usage: ./setup.sh [--tests])" >&2; exit 2 ;;
esac
PACKAGES="g++ make cmake pkg-config libsystemc-dev libboost-program-options-dev nlohmann-json3-dev libgtest-dev liblzma-dev zlib1g-dev clang libclang-rt-14-dev"
# The Slurm test of `gpusim sweep --slurm` (tb/slurm/slurm_sweep_test.sh) starts its own daemons.
PACKAGES="$PACKAGES slurmctld slurmd slurm-client munge"
# `gpusim report --png` (rsvg-convert) and the report page's test in a headless browser.
PACKAGES="$PACKAGES librsvg2-bin chromium"
# The Python module (gpusim/, docs/extending.md): pybind11 embeds Debian's Python in the plugin that
# runs Python policies; pandas and matplotlib for DataFrames and the example's figure.
PACKAGES="$PACKAGES python3 python3-dev pybind11-dev python3-pandas python3-matplotlib"
# Python policies typed at a prompt or in a notebook are sent to gpusim by value (cloudpickle);
# gpusim.run(progress=True) draws a tqdm bar.
PACKAGES="$PACKAGES python3-cloudpickle python3-tqdm"

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
    # Packages with daemons (munge, slurmctld, slurmd) start them when installed: without systemd
    # through their init scripts, whose failure would fail the install, and a system munged left
    # running is of no use (the Slurm test starts private daemons). A policy-rc.d refusing every
    # start (exit 101) prevents it: ours only when there is none, removed afterwards.
    policy=/usr/sbin/policy-rc.d
    own_policy=""
    if [ ! -e "$policy" ]; then
        own_policy=1
        trap '$SUDO rm -f "$policy"' EXIT
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
        $SUDO chmod 755 "$policy"
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
    if [ -n "$own_policy" ]; then
        $SUDO rm -f "$policy"
        trap - EXIT
    fi
fi

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" $TARGET
# `import gpusim` from any directory (a .pth file in the user site directory; it says where).
if [ -f "$BUILD_DIR/python/gpusim/__init__.py" ]; then
    sh python/install_pth.sh "$BUILD_DIR"
fi
