#!/usr/bin/env bash
# Puts the OASIS UBL 2.1 runtime schemas (xsdrt: maindoc/ + common/) in ./vendor/ubl-2.1/xsdrt for the /ubl output.
# Taken from ../shared/standards when it is there (development, CI); otherwise downloaded from OASIS (Docker builds).
# vendor/ is not committed: these files belong to OASIS.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=vendor/ubl-2.1/xsdrt
if [ -f "$DEST/maindoc/UBL-Invoice-2.1.xsd" ] && [ -f "$DEST/maindoc/UBL-CreditNote-2.1.xsd" ]; then
  exit 0
fi
SHARED=../shared/standards/ubl-2.1/xsdrt
mkdir -p "$(dirname "$DEST")"
if [ -f "$SHARED/maindoc/UBL-Invoice-2.1.xsd" ]; then
  rm -rf "$DEST" && cp -R "$SHARED" "$DEST"
  echo "install-standards: UBL 2.1 schemas copied from $SHARED"
else
  URL=https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "install-standards: downloading $URL"
  curl -fsSL "$URL" -o "$tmp/ubl.zip"
  (cd "$tmp" && unzip -q ubl.zip 'xsdrt/*')
  rm -rf "$DEST" && mv "$tmp/xsdrt" "$DEST"
fi
