#!/usr/bin/env bash
# Installs the Debian packages the service and its tests need, and Node.js 20+ when it is missing.
# Idempotent and quick when everything is there. Uses sudo when not run as root.
set -euo pipefail

# Usage: install-system.sh [--runtime | --build]
#   (none)     development and CI: everything below
#   --runtime  what the service needs to run (the Docker image)
#   --build    runtime + what `npm ci` needs to build native modules and fetch the UBL schemas (Docker build stage)
RUNTIME=(
  chromium-headless-shell   # the PDF printer (puppeteer drives it; no browser download)
  fonts-dejavu-core         # web pages in the test browser only; the printer sees no system font (server/pdf/font-isolation.ts)
  ca-certificates           # https logos
  tini                      # PID 1 in the container: reaps the helper processes of a Chromium that crashed
)
BUILD=(
  python3 make g++          # native modules (better-sqlite3) build from source
  curl unzip                # install-standards.sh downloads the UBL schemas when ../shared is absent
)
TEST=(
  poppler-utils             # pdftotext, pdfinfo, pdfimages, pdffonts: the tests read the PDFs with them
  qpdf                      # the tests check the PDF structure with qpdf --check
  libxml2-utils             # xmllint: the tests check the UBL against the XSD independently of the service
  redis-server              # the quota tests run a real Redis (the service uses it when REDIS_URL is set)
  docker-compose            # the tests check docker-compose.yml with `docker-compose config` (no Docker engine needed)
)
case "${1:-}" in
  --runtime) PACKAGES=("${RUNTIME[@]}") ;;
  --build) PACKAGES=("${RUNTIME[@]}" "${BUILD[@]}") ;;
  "") PACKAGES=("${RUNTIME[@]}" "${BUILD[@]}" "${TEST[@]}") ;;
  *) echo "usage: $0 [--runtime | --build]" >&2; exit 2 ;;
esac

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-system: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

node_ok() { command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]; }

if [ ${#missing[@]} -gt 0 ] || ! node_ok; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-system: installing ${missing[*]}"
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if ! node_ok; then
    echo "install-system: installing Node.js (20 or newer is needed)"
    $SUDO apt-get install -y -qq nodejs npm >/dev/null || true
    if ! node_ok; then
      # Debian 12 ships Node 18: take Node 20 from NodeSource's Debian repository.
      $SUDO apt-get install -y -qq curl gnupg >/dev/null
      curl -fsSL https://deb.nodesource.com/setup_20.x | $SUDO bash - >/dev/null
      $SUDO apt-get install -y -qq nodejs >/dev/null
    fi
    node_ok || { echo "install-system: Node.js 20+ could not be installed; install it and run again" >&2; exit 1; }
  fi
fi

[ "${1:-}" = "--runtime" ] || "$(dirname "$0")/install-standards.sh"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
[ -x "$CHROMIUM" ] || { echo "install-system: $CHROMIUM is missing after the install" >&2; exit 1; }
echo "install-system: ready (node $(node -v), $("$CHROMIUM" --version 2>/dev/null | head -1))"
