#!/usr/bin/env bash
# Browser tests of tabula-board: installs Debian's Chromium if it is missing
# and playwright-core from the npm registry (the browser playwright would
# download is not used), then drives the release binaries in
# target/release (build the workspace first).
set -euo pipefail
cd "$(dirname "$0")"

if [ -z "${CHROMIUM:-}" ] && ! [ -x /usr/bin/chromium ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -q chromium >/dev/null 2>&1 || {
    $sudo apt-get update -q >/dev/null
    $sudo apt-get install -y -q chromium >/dev/null
  }
fi
npm ci --no-audit --no-fund --loglevel=error
npm test
