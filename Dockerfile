# docgen-service: Debian with Node.js 24 LTS and chromium-headless-shell, installed by the same script as CI
# (scripts/install-system.sh). Runs as a non-root user; configuration by environment variables (README).
FROM debian:bookworm-slim AS build
WORKDIR /app
COPY scripts/ scripts/
RUN scripts/install-system.sh --build
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY server/ server/
RUN npm run build && npm prune --omit=dev \
 # The documents use the 400 and 700 weights of the @fontsource families (themes/fonts.json): the other weights
 # and the italics are 250 MB the image does not need.
 && find node_modules/@fontsource -type f -path '*/files/*' ! -name '*-400-normal.*' ! -name '*-700-normal.*' -delete
# No ../shared in a Docker build context: the UBL 2.1 schemas come from the OASIS release package.
RUN scripts/install-standards.sh

FROM debian:bookworm-slim
WORKDIR /app
COPY scripts/install-system.sh scripts/install-standards.sh scripts/
RUN scripts/install-system.sh --runtime \
 && useradd --system --uid 10001 --home-dir /tmp --shell /usr/sbin/nologin app \
 && mkdir -p /data && chown app /data
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/vendor vendor
COPY package.json ./
COPY schemas/ schemas/
COPY codes/ codes/
COPY locales/ locales/
COPY templates/ templates/
COPY themes/ themes/
COPY public/ public/
COPY studio/ studio/
COPY examples/ examples/
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SQLITE_PATH=/data/service.db \
    HOME=/tmp
USER 10001
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# tini as PID 1 forwards SIGTERM to node and reaps orphaned Chromium helpers after a browser crash.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
