# docgen-service: Debian with Node.js 24 LTS and chromium-headless-shell, installed by the same script as CI
# (scripts/install-system.sh), and every e-invoice standard from its publisher (npm run standards). Runs as uid 10001;
# configuration by environment variables (README). docs/docker.md says how to build and run it.
#
# Build arguments (build stage only: none of them reaches the image):
#   EXTRA_CA_CERT     a PEM certificate to trust besides Debian's (a network whose TLS proxy re-signs npm and GitHub):
#                     --build-arg EXTRA_CA_CERT="$(cat proxy-ca.crt)"
#   STANDARDS_MIRROR  a folder of the build context holding the standards' files in the layout of vendor/ (a mirror of
#                     their publishers, for a build without access to them): standards/mirror, say
FROM debian:bookworm-slim AS build
ARG EXTRA_CA_CERT=""
ARG STANDARDS_MIRROR=""
WORKDIR /app
# Trust the extra CA before anything goes out over TLS (apt reads Debian over http; npm and curl use https).
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates >/dev/null \
 && if [ -n "$EXTRA_CA_CERT" ]; then printf '%s\n' "$EXTRA_CA_CERT" >/usr/local/share/ca-certificates/build-extra.crt \
      && update-ca-certificates >/dev/null; fi
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY scripts/install-system.sh scripts/
RUN scripts/install-system.sh --build
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --no-fund --no-audit
# The standards first, with only the code that installs them, so that a change elsewhere keeps this layer.
COPY tsconfig.json ./
COPY standards/ standards/
COPY server/standards/ server/standards/
COPY server/cli/standards.ts server/cli/
COPY server/config.ts server/
COPY server/workers/print-first.ts server/workers/
COPY server/einvoice/rules/rule-sets.ts server/einvoice/rules/
RUN STANDARDS_MIRROR="$STANDARDS_MIRROR" npm run -s standards && rm -rf standards/mirror
COPY tsconfig.build.json ./
# Declarations of the untyped packages (saxon-js, wawoff2) for the build.
COPY types/ types/
COPY server/ server/
RUN npm run build && npm prune --omit=dev \
 # The documents use the 400 and 700 weights of the @fontsource families (themes/fonts.json): the other weights
 # and the italics are 250 MB the image does not need.
 && find node_modules/@fontsource -type f -path '*/files/*' ! -name '*-400-normal.*' ! -name '*-700-normal.*' -delete

FROM debian:bookworm-slim
WORKDIR /app
# The one Node binary of the build stage: no npm, node-gyp, headers or Debian Node in the image.
COPY --from=build /opt/node-24/bin/node /usr/local/bin/node
COPY scripts/install-system.sh scripts/
RUN scripts/install-system.sh --runtime \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
 && useradd --system --uid 10001 --home-dir /tmp --shell /usr/sbin/nologin app \
 && mkdir -p /data && chown app /data
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/vendor vendor
COPY package.json ./
COPY standards/manifest.json standards/manifest.schema.json standards/
COPY schemas/ schemas/
COPY codes/ codes/
COPY locales/ locales/
COPY templates/ templates/
COPY themes/ themes/
COPY public/ public/
COPY studio/ studio/
COPY examples/ examples/
# CHROMIUM_SANDBOX=false: Chromium's sandbox needs user namespaces, which Docker's default seccomp profile refuses to a
# container, so a plain `docker run` could not start it. The page it prints runs no JavaScript and reaches no network
# or file; the container is the isolation boundary (docs/docker.md, "Chromium's sandbox").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SQLITE_PATH=/data/service.db \
    CHROMIUM_SANDBOX=false \
    HOME=/tmp
USER 10001
EXPOSE 3000
VOLUME /data
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# tini as PID 1 forwards SIGTERM to node and reaps orphaned Chromium helpers after a browser crash.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
