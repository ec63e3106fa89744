#!/usr/bin/env bash
# Installs the Debian 12 packages osvs builds with (idempotent; needs root or sudo).
# nvcc (CUDA 13) is expected on PATH already; the CUDA build is skipped with a message if not.
set -euo pipefail
packages=(cmake g++ make git clang-14 clang libclang-rt-14-dev librapidcheck-dev libgtest-dev
          libbenchmark-dev libboost-dev libmpfr-dev libgmp-dev nlohmann-json3-dev libcli11-dev
          libfmt-dev zlib1g-dev gnuplot-nox pngquant ccache python3-dev python3-venv
          lld         # the sanitized build's linker: its test programs link in a fifth of ld's time
          libz3-dev   # libz3-dev: formal/'s SMT proofs (z3's C++ API)
          gappa coq libcoq-gappa)  # formal/gappa/: Gappa's proofs of the one-step bounds, and
                                   # Coq with Gappa's library to check its certificates
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "osvs: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
