# syntax=docker/dockerfile:1
# svc-sandbox as a service container: `docker run -p 4010:4010 -p 4011:4011 IMAGE`.
# README.md, "Container image", says how to run it; scripts/test-container.sh builds and tests it.

# ---- build: the full install, the build, then only the production dependencies kept ----
FROM node:24-bookworm-slim AS build
# better-sqlite3 ships prebuilt Node-API binaries in its npm package (prebuilds/), but npm still runs
# its `node-gyp rebuild`, which only checks for the prebuild and compiles nothing; node-gyp needs
# Python and make for that check (and g++ brings binutils, for `strip` below). The headers come with
# the Node image (/usr/local/include/node), so node-gyp never downloads them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# A CA bundle for a TLS-intercepting proxy, when the build machine sits behind one (mounted into the
# build by the builder, e.g. `podman build -v`; see scripts/test-container.js). Unset otherwise.
ARG NODE_EXTRA_CA_CERTS
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 \
    npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build includes the dashboard (electron-vite build): the server serves out/renderer at `/`.
RUN npm run build
# What runs: the production dependencies the bundled server loads at run time only (the rest is
# inside its bundles: scripts/container/prune-runtime.js), without what only a compiler or an editor
# reads (better-sqlite3's SQLite sources and its prebuilt binaries for other platforms, type
# declarations, source maps).
RUN npm prune --omit=dev --no-audit --no-fund \
 && cd node_modules/better-sqlite3 \
 && keep="linux-$(node -p process.arch).node" \
 && rm -rf build deps src \
 && find prebuilds -type f ! -name "$keep" -delete \
 && cd /src \
 && find node_modules dist -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete \
 && rm -rf node_modules/.bin \
 && node scripts/container/prune-runtime.js /src \
 && node -e "require('better-sqlite3')(':memory:').prepare('select 1').get()"
# Node without its debug symbols (~18 MB for 24): the dynamic symbols native addons link against stay.
RUN strip --strip-all -o /node /usr/local/bin/node

# ---- rootfs: Debian slim without what a running sandbox never uses ----
# The runtime is this tree, copied onto an empty image: Debian's C and C++ libraries (Node's),
# tzdata, a shell (dash, bash) and the basic tools (coreutils, grep, sed, find, tar...) to look
# around a running container. Left out, with every file they install: apt, dpkg and perl (no package
# is ever installed into the runtime), login/passwd/PAM, util-linux, e2fsprogs and the libraries only
# those use. A RUN that deletes files in a layer cannot shrink an image: hence the copy. dpkg's
# status file is rewritten to list exactly the packages kept, so image scanners still see them. A
# path that a kept package lists too (a shared directory, mostly) stays.
FROM debian:bookworm-slim AS rootfs
ARG KEEP="base-files base-passwd libdebconfclient0 libc6 libc-bin libgcc-s1 gcc-12-base libstdc++6 \
  tzdata dash bash libtinfo6 debianutils ncurses-base coreutils libacl1 libattr1 libselinux1 \
  libpcre2-8-0 libgmp10 grep sed findutils mawk gzip tar diffutils hostname"
# The build's CA bundle, when mounted into RUN steps (see the build stage), is not copied.
ARG NODE_EXTRA_CA_CERTS
RUN set -eu; \
    groupadd --gid 1000 sandbox; \
    useradd --uid 1000 --gid sandbox --home-dir /data --no-create-home --shell /usr/sbin/nologin sandbox; \
    mkdir /rootfs /data; \
    tar -C / --one-file-system --numeric-owner --exclude=./rootfs --exclude=./data --exclude='./proc/*' \
      --exclude='./sys/*' --exclude='./dev/*' --exclude='./run/*' --exclude='./tmp/*' \
      --exclude=".${NODE_EXTRA_CA_CERTS:-/nonexistent}" -cpf - . | tar -C /rootfs -xpf -; \
    dpkg-query -W -f '${Package}\n' | sort >/tmp/all; \
    printf '%s\n' $KEEP | sort -u >/tmp/keep; \
    if comm -13 /tmp/all /tmp/keep | grep .; then echo "rootfs: KEEP names packages not installed" >&2; exit 1; fi; \
    comm -23 /tmp/all /tmp/keep >/tmp/drop; \
    dpkg-query -L $(cat /tmp/keep) | grep '^/' | sort -u >/tmp/kept-paths; \
    dpkg-query -L $(cat /tmp/drop) | grep '^/' | sort -u | comm -23 - /tmp/kept-paths >/tmp/dropped-paths; \
    while read -r path; do \
      if [ -L "/rootfs$path" ] || [ -f "/rootfs$path" ]; then rm -f "/rootfs$path"; fi; \
    done </tmp/dropped-paths; \
    sort -r /tmp/dropped-paths | while read -r path; do \
      if [ -d "/rootfs$path" ] && [ ! -L "/rootfs$path" ]; then rmdir --ignore-fail-on-non-empty "/rootfs$path"; fi; \
    done; \
    for p in $(cat /tmp/drop); do rm -f /rootfs/var/lib/dpkg/info/"$p".* /rootfs/var/lib/dpkg/info/"$p":*.*; done; \
    dpkg-query -s $(cat /tmp/keep) >/rootfs/var/lib/dpkg/status; \
    rm -rf /rootfs/var/lib/dpkg/status-old /rootfs/var/lib/dpkg/available* /rootfs/var/cache/debconf \
      /rootfs/var/cache/apt /rootfs/var/lib/apt /rootfs/var/log/* /rootfs/etc/apt; \
    ldconfig -r /rootfs; \
    echo "rootfs: kept $(wc -l </tmp/keep) packages, dropped $(wc -l </tmp/drop): $(echo $(cat /tmp/drop))"
COPY --from=build /node /rootfs/usr/local/bin/node
# Every program and library left finds the libraries it links against, and Node runs.
RUN set -eu; \
    missing="$(chroot /rootfs /bin/bash -c 'find / -xdev -type f \( -perm /111 -o -name "*.so*" \) -exec ldd {} + 2>/dev/null | grep -B20 "not found" || true')"; \
    if [ -n "$missing" ]; then echo "rootfs: missing libraries: $missing" >&2; exit 1; fi; \
    chroot /rootfs node -e "console.log('rootfs: node', process.version)"; \
    chroot /rootfs id sandbox; \
    du -sh /rootfs

# ---- runtime: that tree, Node 24's binary included, and the built sandbox ----
FROM scratch
COPY --from=rootfs /rootfs /
COPY --from=rootfs --chown=1000:1000 /data /data
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/bin ./bin
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist/server ./dist/server
COPY --from=build /src/out/renderer ./out/renderer
COPY scripts/container/healthcheck.js ./healthcheck.js
# Every serve option has an environment variable (svc-sandbox serve --help). In the image: all
# interfaces, the database in the volume, and the control API open to the container network, which
# is where every client of a container comes from (README.md says the risk, and --control-token).
ENV NODE_ENV=production \
    SVC_SANDBOX_HOST=0.0.0.0 \
    SVC_SANDBOX_DB=/data/svc-sandbox.db \
    SVC_SANDBOX_ALLOW_REMOTE_CONTROL=true
USER 1000:1000
VOLUME ["/data"]
EXPOSE 4010 4011
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["node", "/app/healthcheck.js"]
ENTRYPOINT ["node", "/app/bin/svc-sandbox.js"]
CMD ["serve"]
