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

# ---- runtime: Debian slim, Node 24's binary (from the build stage), the built sandbox ----
FROM debian:bookworm-slim
COPY --from=build /node /usr/local/bin/node
RUN groupadd --gid 1000 sandbox \
 && useradd --uid 1000 --gid sandbox --home-dir /data --no-create-home --shell /usr/sbin/nologin sandbox \
 && mkdir /data \
 && chown sandbox:sandbox /data
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
