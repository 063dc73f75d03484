#!/usr/bin/env bash
# The Docker image as users get it: builds it, runs it alone (read-only root, uid 10001, the keys CLI), then runs
# docker-compose.yml unchanged (two replicas behind nginx, one Redis) and checks through nginx: a PDF, a UBL, a CII, a
# Factur-X, a /validate report of an official example naming its rule sets, a received UBL shown as a PDF, a French
# invoice validated with the French rules and its lifecycle status (POST /status); a brand set through one replica
# and used by both; the quota
# of a free key exact across the replicas (110 requests: 100 × 200, 10 × 429); keys and usage kept over
# `down`/`up`; Redis stopped and started (JSON 503s, then documents again); a replica killed under load (only
# documents and JSON 503s). Prints the image size, the build time and every figure, and exits non-zero on a failure.
#   scripts/docker-check.sh [--no-build | --no-cache]    (--no-cache: build every layer again, as on a new machine)
# Environment:
#   STANDARDS_MIRROR   a folder holding the standards in vendor/'s layout, for a build without the publishers'
#                      network (copied into the build context as standards/mirror, removed afterwards)
#   EXTRA_CA_CERT_FILE a PEM certificate the build trusts besides Debian's (a TLS proxy's), never put in the image
# Needs a Docker engine, docker-compose, curl and node; the base images (debian:bookworm-slim, nginx:1.27-alpine,
# redis:7-alpine) from a registry or, without one, from scripts/docker-base-images.sh. Uses host ports 3000 and 3100.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=docgen-service:latest
PROJECT=docgen-check
LB=http://127.0.0.1:3000
SINGLE_PORT=3100
COMPOSE=(docker-compose -p "$PROJECT")
WORK=$(mktemp -d)
FAILURES=0

log() { printf '[docker-check] %s\n' "$*"; }
fail() { log "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
check() { if eval "$2"; then log "ok: $1"; else fail "$1"; fi; }
# Containers, networks and volumes of an earlier run or of this one.
remove_containers() {
  docker rm -f "$PROJECT-single" >/dev/null 2>&1 || true
  docker volume rm "$PROJECT-single-data" >/dev/null 2>&1 || true
  "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
}
trap 'remove_containers; rm -rf standards/mirror "$WORK"' EXIT

# post ROUTE KEY BODY_FILE CONTENT_TYPE OUT_FILE: prints the status; the body goes to OUT_FILE, headers to OUT_FILE.h
post() {
  curl -s -o "$5" -D "$5.h" -w '%{http_code}' -X POST "$LB$1" -H "Authorization: Bearer $2" -H "Content-Type: $4" \
    --data-binary "@$3" --max-time 60 || echo 000
}

# wait_for URL SECONDS: until URL answers 2xx
wait_for() {
  local i
  for ((i = 0; i < $2; i++)); do curl -fs -o /dev/null --max-time 2 "$1" && return 0; sleep 1; done
  return 1
}

# wait_healthy SECONDS: until every app replica reports healthy
wait_healthy() {
  local i ids states
  for ((i = 0; i < $1; i++)); do
    ids=$("${COMPOSE[@]}" ps -q app)
    states=$(for id in $ids; do docker inspect -f '{{.State.Health.Status}}' "$id"; done | sort -u | tr '\n' ' ')
    [ -n "$ids" ] && [ "$states" = "healthy " ] && wait_for "$LB/healthz" 10 && return 0
    sleep 1
  done
  return 1
}

is_json_error() { node -e 'const b=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.exit(b.code && b.message && b.request_id ? 0 : 1)' "$1" 2>/dev/null; }

for tool in docker docker-compose curl node; do command -v "$tool" >/dev/null || { log "$tool is missing"; exit 2; }; done
docker info >/dev/null 2>&1 || { log "no Docker engine answers (start dockerd)"; exit 2; }
for base in debian:bookworm-slim nginx:1.27-alpine redis:7-alpine; do
  docker image inspect "$base" >/dev/null 2>&1 ||
    { log "the base image $base is missing: docker pull it, or make it with scripts/docker-base-images.sh"; exit 2; }
done
remove_containers

# 1. The image.
if [ "${1:-}" != "--no-build" ]; then
  args=()
  if [ "${1:-}" = "--no-cache" ]; then args+=(--no-cache); fi
  if [ -n "${EXTRA_CA_CERT_FILE:-}" ]; then args+=(--build-arg "EXTRA_CA_CERT=$(cat "$EXTRA_CA_CERT_FILE")"); fi
  if [ -n "${STANDARDS_MIRROR:-}" ]; then
    mkdir -p standards/mirror
    cp -RL "$STANDARDS_MIRROR"/. standards/mirror/
    args+=(--build-arg STANDARDS_MIRROR=standards/mirror)
  fi
  log "building $IMAGE"
  started=$(date +%s.%N)
  docker build -q -t "$IMAGE" "${args[@]}" . >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; log "the build failed"; exit 1; }
  BUILD_SECONDS=$(node -e "console.log((Date.now()/1000 - $started).toFixed(0))")
  rm -rf standards/mirror
  log "built in $BUILD_SECONDS s"
fi
SIZE=$(docker image inspect -f '{{.Size}}' "$IMAGE")
log "image size: $((SIZE / 1000000)) MB ($SIZE bytes)"
check 'the image runs as uid 10001' '[ "$(docker run --rm --entrypoint id "$IMAGE" -u)" = 10001 ]'
NODE_VERSION=$(docker run --rm --entrypoint node "$IMAGE" -p process.version)
check "the image has Node $NODE_VERSION and no npm" \
  '[[ "$NODE_VERSION" == v24.* ]] && ! docker run --rm --entrypoint sh "$IMAGE" -c "command -v npm" >/dev/null'
check 'the image holds the standards the manifest names' \
  'docker run --rm --entrypoint node "$IMAGE" dist/server/cli/standards.js check >/dev/null'
SANDBOX=$(timeout 60 docker run --rm -e CHROMIUM_SANDBOX=true "$IMAGE" 2>&1 | tail -1 | cut -c1-100 || true)
check "with CHROMIUM_SANDBOX=true under Docker's seccomp profile, the start-up error names the sandbox ($SANDBOX…)" \
  '[[ "$SANDBOX" == "Chromium starts without its sandbox but not with it"* ]]'

# 2. One container alone, as docs/operating.md runs it: read-only root, a volume for the SQLite keys.
log "one container alone (docker run)"
docker run -d --name "$PROJECT-single" -p "127.0.0.1:$SINGLE_PORT:3000" --read-only --tmpfs /tmp \
  -v "$PROJECT-single-data:/data" "$IMAGE" >/dev/null
if wait_for "http://127.0.0.1:$SINGLE_PORT/readyz" 60; then
  created=$(docker exec "$PROJECT-single" node dist/server/cli/keys.js create --account single)
  key=$(grep -o 'sk_[0-9A-Za-z]*' <<<"$created" | head -1)
  hint=$(grep -o 'Revoke it with: .*' <<<"$created" || true)
  status=$(curl -s -o "$WORK/single.pdf" -w '%{http_code}' "http://127.0.0.1:$SINGLE_PORT/" -H "Authorization: Bearer $key" \
    -d from=A -d to=B -d 'items[0][name]=x' -d 'items[0][unit_cost]=1')
  check 'a PDF from the container alone' '[ "$status" = 200 ] && [ "$(head -c 5 "$WORK/single.pdf")" = "%PDF-" ]'
  check "the keys CLI's hint works inside the image ($hint)" \
    'docker exec "$PROJECT-single" ${hint#Revoke it with: } >/dev/null'
else
  fail 'the container alone did not become ready'
  docker logs "$PROJECT-single" 2>&1 | tail -20
fi
docker rm -f "$PROJECT-single" >/dev/null

# 3. docker-compose.yml, unchanged.
log "docker-compose up (two replicas, nginx, Redis)"
"${COMPOSE[@]}" up -d --no-build >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; exit 1; }
wait_healthy 120 || { "${COMPOSE[@]}" ps; "${COMPOSE[@]}" logs --tail 30; fail 'the replicas did not become healthy'; exit 1; }
APPS=$("${COMPOSE[@]}" ps -q app)
check 'two replicas, each uid 10001 with a read-only root' \
  '[ "$(for id in $APPS; do docker inspect -f "{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}" "$id"; done | sort -u)" = "10001 true" ] && [ "$(wc -w <<<"$APPS")" = 2 ]'
PAID=$("${COMPOSE[@]}" exec -T app node dist/server/cli/keys.js create --account check --plan paid --quiet | tr -d '\r')
FREE=$("${COMPOSE[@]}" exec -T app node dist/server/cli/keys.js create --account quota --plan free --quiet | tr -d '\r')

# The published invoice example, with the buyer's country that a CII and a Factur-X need (BR-11).
node -e 'const d=JSON.parse(require("fs").readFileSync("examples/invoice.json","utf8")); d.e_invoice={...d.e_invoice,buyer:{...(d.e_invoice||{}).buyer,country:"DE"}}; console.log(JSON.stringify(d))' >"$WORK/invoice.json"
status=$(post / "$PAID" "$WORK/invoice.json" application/json "$WORK/doc.pdf")
check 'POST / through nginx: a PDF' '[ "$status" = 200 ] && [ "$(head -c 5 "$WORK/doc.pdf")" = "%PDF-" ]'
status=$(post /ubl "$PAID" "$WORK/invoice.json" application/json "$WORK/doc.ubl")
check 'POST /ubl: a UBL Invoice' '[ "$status" = 200 ] && grep -q "<Invoice" "$WORK/doc.ubl"'
status=$(post /cii "$PAID" "$WORK/invoice.json" application/json "$WORK/doc.cii")
check 'POST /cii: a CII invoice' '[ "$status" = 200 ] && grep -q "CrossIndustryInvoice" "$WORK/doc.cii"'
status=$(post /factur-x "$PAID" "$WORK/invoice.json" application/json "$WORK/doc-fx.pdf")
check 'POST /factur-x: a PDF carrying factur-x.xml' \
  '[ "$status" = 200 ] && [ "$(head -c 5 "$WORK/doc-fx.pdf")" = "%PDF-" ] && grep -aq "factur-x.xml" "$WORK/doc-fx.pdf"'
docker run --rm --entrypoint cat "$IMAGE" vendor/examples/peppol-bis-3/base-example.xml >"$WORK/peppol.xml"
status=$(post /validate "$PAID" "$WORK/peppol.xml" application/xml "$WORK/report.json")
RULES=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(r.valid+": "+r.rule_sets.map(s=>s.name+" "+s.version+" "+s.fatal).join(", "))' "$WORK/report.json" 2>/dev/null || true)
check "POST /validate of the official Peppol example: $RULES" \
  '[ "$status" = 200 ] && [[ "$RULES" == true:*"EN 16931 UBL"*"Peppol BIS Billing"* ]]'
status=$(post / "$PAID" "$WORK/peppol.xml" application/xml "$WORK/received.pdf")
check 'POST / of the received UBL: shown as a PDF' '[ "$status" = 200 ] && [ "$(head -c 5 "$WORK/received.pdf")" = "%PDF-" ]'

# France's reform: a French invoice (profile fr), recognised as French by /validate with the BR-FR rules, and its
# lifecycle status (the CDAR message) from POST /status.
cat >"$WORK/fr.json" <<'JSON'
{"from":"Atelier Lumière SARL","to":"Client SAS","number":"F-2026-0042","date":"2026-11-20","due_date":"2026-12-20",
 "currency":"EUR","tax":20,"items":[{"name":"Lampe de bureau","quantity":2,"unit_cost":89.5}],
 "e_invoice":{"profile":"fr","operation_category":"goods","processing":"B2B",
  "seller":{"country":"FR","vat_id":"FR32123456789","siren":"123456789","siret":"12345678900017","city":"Paris","postal_code":"75002"},
  "buyer":{"country":"FR","vat_id":"FR61987654321","siren":"987654321","city":"Lyon","postal_code":"69002"},
  "payment_means":{"code":"30","iban":"FR7630006000011234567890189"}}}
JSON
status=$(post /ubl "$PAID" "$WORK/fr.json" application/json "$WORK/fr.ubl")
check 'POST /ubl with profile fr: a French UBL' '[ "$status" = 200 ] && grep -q "<cbc:ProfileID>B1</cbc:ProfileID>" "$WORK/fr.ubl"'
status=$(post /validate "$PAID" "$WORK/fr.ubl" application/xml "$WORK/fr-report.json")
FR=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(r.valid+" "+r.french+": "+r.rule_sets.map(s=>s.name+" "+s.fatal).join(", "))' "$WORK/fr-report.json" 2>/dev/null || true)
check "POST /validate of the French UBL: $FR" '[ "$status" = 200 ] && [[ "$FR" == "true true:"*"BR-FR"* ]]'
node -e 'console.log(JSON.stringify({invoice:require("fs").readFileSync(process.argv[1],"utf8"),status:"refused",reason:"DOUBLON"}))' "$WORK/fr.ubl" >"$WORK/status.json"
status=$(post /status "$PAID" "$WORK/status.json" application/json "$WORK/status.xml")
check 'POST /status: the CDAR message (refused, 210)' \
  '[ "$status" = 200 ] && grep -q "CrossDomainAcknowledgementAndResponse" "$WORK/status.xml" && grep -q "<ram:ProcessConditionCode>210<" "$WORK/status.xml"'

# A brand set through one replica is every replica's (Redis): the account's documents, wherever nginx sends them, in
# the modern theme with the Arimo font and the footer; then cleared.
echo '{"theme":"modern","accent_color":"#0e7490","font":"Arimo","footer":"Ocean Ltd · Registered in Cardiff 01234567"}' >"$WORK/brand.json"
status=$(curl -s -o "$WORK/brand.out" -w '%{http_code}' -X PUT "$LB/brand" -H "Authorization: Bearer $PAID" \
  -H 'Content-Type: application/json' --data-binary "@$WORK/brand.json" --max-time 30 || echo 000)
check 'PUT /brand: the brand as stored' '[ "$status" = 200 ] && grep -q "\"font\":\"Arimo\"" "$WORK/brand.out"'
echo '{"from":"Ocean Ltd","to":"B","items":[{"name":"x","unit_cost":1}]}' >"$WORK/brand-doc.json"
BRANDED=0
for i in 1 2 3 4; do
  status=$(post / "$PAID" "$WORK/brand-doc.json" application/json "$WORK/branded-$i.pdf")
  [ "$status" = 200 ] && grep -aq "Arimo-Regular" "$WORK/branded-$i.pdf" && BRANDED=$((BRANDED + 1))
done
check "POST / × 4 through both replicas: $BRANDED in the account's brand (Arimo)" '[ "$BRANDED" = 4 ]'
curl -s -o /dev/null -X PUT "$LB/brand" -H "Authorization: Bearer $PAID" -H 'Content-Type: application/json' -d '{}' --max-time 30

# 4. The quota of a free key (100 a month) across both replicas.
echo '{"from":"A","to":"B","items":[{"name":"x","unit_cost":1}]}' >"$WORK/small.json"
: >"$WORK/quota.txt"
for _ in $(seq 110); do post / "$FREE" "$WORK/small.json" application/json "$WORK/q.out" >>"$WORK/quota.txt"; echo >>"$WORK/quota.txt"; done
Q200=$(grep -c '^200$' "$WORK/quota.txt" || true)
Q429=$(grep -c '^429$' "$WORK/quota.txt" || true)
SERVED=$(for id in $APPS; do
  docker exec "$id" node -e 'fetch("http://127.0.0.1:3000/metrics").then(r=>r.text()).then(t=>{let n=0;for(const l of t.split("\n"))if(l.startsWith("docgen_http_requests_total{")&&l.includes("route=\"/\"")&&l.includes("status=\"200\""))n+=Number(l.split(" ").pop());console.log(n)})'
done | tr '\n' ' ')
check "110 requests of a free key: $Q200 × 200, $Q429 × 429 (documents per replica: $SERVED)" \
  '[ "$Q200" = 100 ] && [ "$Q429" = 10 ] && [ "$(wc -w <<<"$SERVED")" = 2 ] && ! grep -qw 0 <<<"$SERVED"'

# 5. Keys and usage kept over down/up (Redis's volume).
"${COMPOSE[@]}" down >/dev/null 2>&1
"${COMPOSE[@]}" up -d --no-build >/dev/null 2>&1
wait_healthy 120 || fail 'the replicas did not come back after down/up'
APPS=$("${COMPOSE[@]}" ps -q app)
s1=$(post / "$PAID" "$WORK/small.json" application/json "$WORK/k.out")
s2=$(post / "$FREE" "$WORK/small.json" application/json "$WORK/k2.out")
check "after down/up: the paid key works ($s1), the free key's month is still used up ($s2)" '[ "$s1" = 200 ] && [ "$s2" = 429 ]'

# 6. Redis stopped, then started again.
"${COMPOSE[@]}" stop redis >/dev/null 2>&1
r1=$(post / "$PAID" "$WORK/small.json" application/json "$WORK/r1.out")
r2=$(post / "$PAID" "$WORK/small.json" application/json "$WORK/r2.out")
check "Redis stopped: $r1, $r2, JSON with Retry-After" \
  '[ "$r1" = 503 ] && [ "$r2" = 503 ] && is_json_error "$WORK/r1.out" && is_json_error "$WORK/r2.out" && grep -qi "^retry-after:" "$WORK/r1.out.h"'
"${COMPOSE[@]}" start redis >/dev/null 2>&1
back=000
for _ in $(seq 60); do back=$(post / "$PAID" "$WORK/small.json" application/json "$WORK/r3.out"); [ "$back" = 200 ] && break; sleep 1; done
check "Redis started again: documents again ($back)" '[ "$back" = 200 ]'

# 7. A replica killed under load: 200 requests, 8 at a time; one replica killed 1.5 s in.
log "200 requests, 8 at a time, one replica killed during them"
node - "$LB" "$PAID" >"$WORK/load.json" <<'EOF' &
const [base, key] = process.argv.slice(2);
const body = JSON.stringify({ from: 'A', to: 'B', items: [{ name: 'x', unit_cost: 1 }] });
const tally = {};
let next = 0;
async function lane() {
  while (next < 200) {
    next++;
    let label;
    try {
      const r = await fetch(`${base}/`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      const bytes = Buffer.from(await r.arrayBuffer());
      const type = (r.headers.get('content-type') || '').split(';')[0];
      let kind = type;
      if (type === 'application/json') { try { const j = JSON.parse(bytes); kind = `json ${j.code}`; } catch { kind = 'bad json'; } }
      else if (type === 'application/pdf') kind = bytes.subarray(0, 5).toString() === '%PDF-' ? 'pdf' : 'bad pdf';
      label = `${r.status} ${kind}${r.status === 503 && !r.headers.get('retry-after') ? ' without Retry-After' : ''}`;
    } catch (e) { label = `failed ${e.cause?.code || e.message}`; }
    tally[label] = (tally[label] || 0) + 1;
  }
}
Promise.all(Array.from({ length: 8 }, lane)).then(() => console.log(JSON.stringify(tally)));
EOF
LOAD=$!
sleep 1.5
VICTIM=$(head -1 <<<"$APPS")
docker kill "$VICTIM" >/dev/null
wait "$LOAD"
TALLY=$(cat "$WORK/load.json")
check "a replica killed under load: $TALLY" \
  'node -e "const t=JSON.parse(process.argv[1]); process.exit(Object.keys(t).every(k=>k===\"200 pdf\"||/^503 json \\w+$/.test(k)) && t[\"200 pdf\"]>0 ? 0 : 1)" "$TALLY"'
"${COMPOSE[@]}" up -d --no-build >/dev/null 2>&1
wait_healthy 120 && log 'ok: the killed replica is back' || fail 'the killed replica did not come back'

log "summary: image $((SIZE / 1000000)) MB${BUILD_SECONDS:+, built in $BUILD_SECONDS s}; $FAILURES failure(s)"
[ "$FAILURES" = 0 ]
