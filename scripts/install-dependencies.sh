#!/usr/bin/env bash
# Installs what building Folio needs beyond the Swift toolchain: YAJL's headers and
# library (Debian's libyajl-dev) and pkg-config, which finds them. Does nothing when
# they are present; refreshes the package lists only when an install needs it.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists yajl; }; then
  missing+=(libyajl-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "error: ${missing[*]} missing; run as root or install them: apt-get install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "Installing ${missing[*]}..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
