#!/usr/bin/env bash
# Makes the three base images that Dockerfile and docker-compose.yml name, on a machine that can reach no image
# registry but can reach a Debian mirror: each is a Debian root file system made with `debootstrap --variant=minbase`
# and loaded with `docker import`.
#   debian:bookworm-slim  bookworm, apt pointed at the host's Debian mirror, no apt lists, no docs/man pages/locales
#   nginx:1.27-alpine     only the name is the one docker-compose.yml uses: Debian's nginx from testing (forky), since
#                         deploy/nginx.conf needs 1.27.3+ (`resolve` on an upstream server) and bookworm has 1.22,
#                         trixie 1.26; with wget (the compose healthcheck), logs to stdout/stderr, nginx -g 'daemon off;'
#   redis:7-alpine        Debian bookworm's redis-server 7.0 and redis-cli, behaving like the official image: WORKDIR
#                         /data, runs as user redis, and without a config file listens on every interface with protected
#                         mode off (Debian's binary keeps protected mode on), so `command: [redis-server, --appendonly,
#                         yes]` is reachable from the other containers.
# Needs root, a running dockerd, debootstrap. Idempotent: an image that already exists is left alone unless --force.
#   scripts/docker-base-images.sh [--force] [--check]
#     --force  make all three again
#     --check  then smoke-test them (apt-get update in a container, nginx -t with deploy/nginx.conf, redis reachable
#              from another container on a user-defined network)
# The mirrors are the host's (its /etc/apt/sources.list*), or DEBIAN_MIRROR / DEBIAN_SECURITY_MIRROR. A CA the host
# needs for an https mirror is used during the bootstrap only; it is not put into the images.
set -euo pipefail

SLIM=debian:bookworm-slim
NGINX=nginx:1.27-alpine
REDIS=redis:7-alpine
NGINX_SUITE=forky           # Debian testing when this was written: nginx 1.30; the debootstrap script is sid's
NGINX_MIN=1.27.3
ENV_PATH=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

FORCE=0 CHECK=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    --check) CHECK=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--force] [--check]" >&2; exit 2 ;;
  esac
done

log() { printf '[docker-base-images] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install -y debootstrap"
docker version >/dev/null 2>&1 || die "docker cannot reach a daemon (start one: nohup dockerd >/var/log/dockerd.log 2>&1 &)"

# The first archive URI of the host's apt sources whose path ends in /$1 (deb822 .sources or one-line .list files).
host_mirror() {
  {
    sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr -s ' \t' '\n'
    sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]\{1,\}\).*/\2/p' \
      /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
  } | sed 's:/*$::' | grep -E "/$1\$" | head -n 1 || true
}
MIRROR=${DEBIAN_MIRROR:-$(host_mirror debian)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-$(host_mirror debian-security)}
SECURITY_MIRROR=${SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# apt inside the chroots: the host's CA bundle for an https mirror (a TLS proxy's CA may be in it), and the host's
# Check-Valid-Until (a mirror that is a frozen copy serves testing's Release files after their Valid-Until).
APT_OPTS=(-o Acquire::Languages=none -o APT::Install-Recommends=false -o Dpkg::Use-Pty=0)
HOST_CA=${HOST_CA:-/etc/ssl/certs/ca-certificates.crt}
case "$MIRROR $SECURITY_MIRROR" in
  *https://*) [ -f "$HOST_CA" ] && APT_OPTS+=(-o Acquire::https::CAInfo=/tmp/host-ca.crt) ;;
esac
if apt-config dump 2>/dev/null | grep -qi '^Acquire::Check-Valid-Until "\(false\|0\|no\)";'; then
  APT_OPTS+=(-o Acquire::Check-Valid-Until=false)
fi

exists() { docker image inspect "$1" >/dev/null 2>&1; }
wanted() { [ "$FORCE" -eq 1 ] || ! exists "$1"; }

WORK=""
cleanup() {
  [ -n "$WORK" ] && [ -d "$WORK" ] || return 0
  local m
  awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" || true
  done
  if awk -v w="$WORK/" 'index($2, w) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
    log "mounts remain under $WORK: not removing it"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

in_root() { # ROOT CMD...: run a command in the chroot with a clean environment
  local root=$1; shift
  chroot "$root" /usr/bin/env -i "$ENV_PATH" HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
apt_in() { local root=$1; shift; in_root "$root" apt-get "${APT_OPTS[@]}" "$@"; }

# bootstrap SUITE ROOT [DEBOOTSTRAP-SCRIPT]: a minbase system, set up as a container image's root file system.
bootstrap() {
  local suite=$1 root=$2 script=${3:-}
  log "debootstrap --variant=minbase $suite from $MIRROR"
  # shellcheck disable=SC2086 # an empty $script is no argument
  debootstrap --variant=minbase "$suite" "$root" "$MIRROR" $script >"$root.log" 2>&1 \
    || { tail -n 30 "$root.log" >&2; die "debootstrap of $suite failed (whole log: $root.log)"; }

  # No daemons started by package scripts: there is no init in a container (nor in the chroot).
  printf '#!/bin/sh\n# Containers have no init: package scripts start no service.\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"

  # Slim: dpkg leaves out documentation (but the copyright files), man and info pages, translations.
  cat >"$root/etc/dpkg/dpkg.cfg.d/container-slim" <<'EOF'
# Container image: no documentation, manual pages or translations are installed (licences are kept).
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
  # apt in a container: no package cache or downloaded .debs kept, no translations, compressed lists.
  cat >"$root/etc/apt/apt.conf.d/90container" <<'EOF'
// Container image: keep layers small.
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
Acquire::GzipIndexes "true";
APT::AutoRemove::SuggestsImportant "false";
EOF

  mount -t proc proc "$root/proc"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  case "$MIRROR $SECURITY_MIRROR" in *https://*) cp "$HOST_CA" "$root/tmp/host-ca.crt" ;; esac
}

# sources ROOT SUITE...: deb822 sources on the mirror (SUITE-security entries go to the security mirror).
sources() {
  local root=$1; shift
  local main=() sec=() s
  for s in "$@"; do case "$s" in *-security) sec+=("$s") ;; *) main+=("$s") ;; esac; done
  rm -f "$root/etc/apt/sources.list"
  {
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$MIRROR" "${main[*]}"
    [ ${#sec[@]} -eq 0 ] || printf '\nTypes: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$SECURITY_MIRROR" "${sec[*]}"
  } >"$root/etc/apt/sources.list.d/debian.sources"
}

# finish ROOT: what a build leaves behind goes (apt lists, caches, logs, docs the excludes would have left out).
finish() {
  local root=$1
  apt_in "$root" clean
  umount "$root/proc"
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/debconf/*-old \
    "$root"/var/lib/dpkg/*-old "$root"/tmp/* "$root"/tmp/.[!.]* "$root"/var/tmp/* "$root"/root/.[!.]* 2>/dev/null || true
  mkdir -p "$root/var/lib/apt/lists/partial"
  find "$root/var/log" -type f \( -name '*.log' -o -name 'lastlog' -o -name 'wtmp' -o -name 'btmp' -o -name 'faillog' \) \
    -delete 2>/dev/null || true
  find "$root/usr/share/doc" -mindepth 1 \( -type f -o -type l \) ! -name copyright -delete
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  find "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/groff" "$root/usr/share/lintian" \
    "$root/usr/share/linda" \( -type f -o -type l \) -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/locale/*
  # Docker provides these at run time.
  : >"$root/etc/resolv.conf"
  rm -f "$root/etc/hostname"
  printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
  [ ! -f "$root/etc/machine-id" ] || : >"$root/etc/machine-id"
}

# import ROOT TAG CHANGE...: the root file system becomes image TAG (a --force replaces the old one, then removed).
import() {
  local root=$1 tag=$2 old change args=()
  shift 2
  old=$(docker image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
  for change in "ENV $ENV_PATH" "$@"; do args+=(--change "$change"); done
  tar --numeric-owner -C "$root" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf - . \
    | docker import "${args[@]}" --message "debootstrap --variant=minbase; scripts/docker-base-images.sh" - "$tag" >/dev/null
  [ -z "$old" ] || docker rmi "$old" >/dev/null 2>&1 || true
  log "$tag: $(docker image inspect --format '{{.Id}} {{.Size}} bytes' "$tag")"
}

IMAGES=()
wanted "$SLIM" && IMAGES+=("$SLIM")
wanted "$NGINX" && IMAGES+=("$NGINX")
wanted "$REDIS" && IMAGES+=("$REDIS")
if [ ${#IMAGES[@]} -eq 0 ]; then
  log "$SLIM, $NGINX and $REDIS exist (--force makes them again)"
else
  WORK=$(mktemp -d /var/tmp/docker-base-images.XXXXXX)
  log "making ${IMAGES[*]} in $WORK (mirror $MIRROR, security $SECURITY_MIRROR)"
fi

# debian:bookworm-slim, and the bookworm system the Redis image starts from.
if wanted "$SLIM" || wanted "$REDIS"; then
  R=$WORK/bookworm
  bootstrap bookworm "$R"
  sources "$R" bookworm bookworm-updates bookworm-security
  apt_in "$R" -qq update
  apt_in "$R" -qq -y upgrade >/dev/null

  if wanted "$REDIS"; then
    log "redis: Debian's redis-server on bookworm"
    RR=$WORK/redis
    umount "$R/proc" && cp -a "$R" "$RR" && mount -t proc proc "$R/proc" && mount -t proc proc "$RR/proc"
    apt_in "$RR" -qq -y install redis-server redis-tools >/dev/null
    mkdir -p "$RR/data"
    in_root "$RR" chown redis:redis /data
    cat >"$RR/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
# Entrypoint of the local stand-in for the official redis image (scripts/docker-base-images.sh), with its behaviour:
#   options first (`--appendonly yes`) or a config file first: they are redis-server's;
#   redis-server without a config file listens on every interface with protected mode off: the official image is
#   built with those defaults, Debian's binary keeps upstream's (protected mode on); the command line still wins;
#   redis-server started as root owns the files in its directory (/data) and runs as user redis.
set -e
case "${1:-}" in
  -*|*.conf) set -- redis-server "$@" ;;
esac
if [ "${1:-}" = redis-server ]; then
  shift
  case "${1:-}" in
    ""|-*) set -- redis-server --bind '* -::*' --protected-mode no "$@" ;;
    *) set -- redis-server "$@" ;;
  esac
  if [ "$(id -u)" = 0 ]; then
    find . \! -user redis -exec chown redis '{}' + || true
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
EOF
    chmod 755 "$RR/usr/local/bin/docker-entrypoint.sh"
    in_root "$RR" redis-server --version >&2
    finish "$RR"
    import "$RR" "$REDIS" \
      "WORKDIR /data" "VOLUME /data" "EXPOSE 6379" \
      'ENTRYPOINT ["docker-entrypoint.sh"]' 'CMD ["redis-server"]' \
      "LABEL org.opencontainers.image.description=\"Debian bookworm redis-server, made by scripts/docker-base-images.sh\""
    rm -rf "$RR"
  fi

  if wanted "$SLIM"; then
    finish "$R"
    import "$R" "$SLIM" 'CMD ["bash"]' \
      "LABEL org.opencontainers.image.description=\"Debian bookworm minbase, made by scripts/docker-base-images.sh\""
  fi
  [ ! -d "$R/proc/self" ] || umount "$R/proc"
  rm -rf "$R"
fi

# nginx:1.27-alpine: Debian's nginx from the suite that has >= 1.27.3.
if wanted "$NGINX"; then
  N=$WORK/nginx
  bootstrap "$NGINX_SUITE" "$N" /usr/share/debootstrap/scripts/sid
  sources "$N" "$NGINX_SUITE"
  apt_in "$N" -qq update
  apt_in "$N" -qq -y install nginx wget >/dev/null
  # shellcheck disable=SC2016 # ${Version} is dpkg-query's
  version=$(in_root "$N" dpkg-query -W -f '${Version}' nginx)
  in_root "$N" dpkg --compare-versions "$version" ge "$NGINX_MIN" \
    || die "nginx $version from $NGINX_SUITE is older than $NGINX_MIN (set NGINX_SUITE in $0)"
  log "nginx: Debian's $version from $NGINX_SUITE"
  # The official image's logging: the compiled-in log files are the container's stdout and stderr.
  ln -sf /dev/stdout "$N/var/log/nginx/access.log"
  ln -sf /dev/stderr "$N/var/log/nginx/error.log"
  finish "$N"
  import "$N" "$NGINX" "EXPOSE 80" 'CMD ["nginx", "-g", "daemon off;"]' \
    "LABEL org.opencontainers.image.version=$version" \
    "LABEL org.opencontainers.image.description=\"Debian $NGINX_SUITE nginx $version, made by scripts/docker-base-images.sh\""
  # docker import takes no STOPSIGNAL: a build of that instruction alone (nginx stops gracefully on SIGQUIT).
  printf 'FROM %s\nSTOPSIGNAL SIGQUIT\n' "$NGINX" | DOCKER_BUILDKIT=0 docker build -q -t "$NGINX" - >/dev/null 2>&1 \
    || die "could not set STOPSIGNAL on $NGINX"
  rm -rf "$N"
fi

if [ "$CHECK" -eq 1 ]; then
  log "check: apt-get update in $SLIM"
  docker run --rm "$SLIM" sh -c 'apt-get update -qq && apt-cache policy bash | sed -n 3p'
  log "check: nginx -t in $NGINX with deploy/nginx.conf"
  conf=$(cd "$(dirname "$0")/.." && pwd)/deploy/nginx.conf
  docker run --rm -v "$conf:/etc/nginx/nginx.conf:ro" "$NGINX" nginx -t || log "nginx -t failed (see above)"
  docker run --rm "$NGINX" sh -c 'nginx -v && command -v wget'
  log "check: redis-server --appendonly yes, reached from another container"
  net=docker-base-images-check-$$
  docker network create "$net" >/dev/null
  docker run -d --rm --name "$net-redis" --network "$net" "$REDIS" redis-server --appendonly yes >/dev/null
  ok=0
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    if docker run --rm --network "$net" "$REDIS" redis-cli -h "$net-redis" ping 2>/dev/null | grep -q PONG; then ok=1; break; fi
    sleep 1
  done
  docker exec "$net-redis" redis-cli config get protected-mode | tr '\n' ' ' >&2; echo >&2
  docker stop "$net-redis" >/dev/null; docker network rm "$net" >/dev/null
  [ "$ok" -eq 1 ] || die "check: redis did not answer PING from another container"
  log "check: all passed"
fi
docker images --format '{{.Repository}}:{{.Tag}}\t{{.ID}}\t{{.Size}}' | grep -E "^($SLIM|$NGINX|$REDIS)\b" >&2 || true
