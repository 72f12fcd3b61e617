#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core (which downloads no browser of
# its own). Installs it from Debian's packages when missing and running as root; otherwise says
# exactly what to install.
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Chromium is not installed at $CHROMIUM. Install it with: sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "Installing chromium from Debian's packages..."
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version
