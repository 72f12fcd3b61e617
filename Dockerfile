# syntax=docker/dockerfile:1.7
# One image per service from one file: `docker build --target <gateway|auth|inventory|media|monitor> .`
# docker-compose.yml builds all five; the Helm chart expects them as <repository>/<service>:<tag>.

# The current Node LTS.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# Native add-ons (raw-socket for the monitor's pings; argon2 when its prebuilt binary does not fit)
# compile here against the headers shipped in the Node image, so node-gyp downloads nothing.
FROM base AS toolchain
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local

# Every workspace's manifest: `npm ci` refuses a lockfile whose workspaces are missing.
FROM toolchain AS manifests
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/simulators/package.json libs/simulators/
COPY services/gateway/package.json services/gateway/
COPY services/auth/package.json services/auth/
COPY services/inventory/package.json services/inventory/
COPY services/media/package.json services/media/
COPY services/monitor/package.json services/monitor/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY deploy/package.json deploy/

FROM manifests AS build
RUN --mount=type=cache,target=/root/.npm npm ci
COPY tsconfig.base.json ./
COPY libs libs
COPY services services
COPY web web
COPY deploy/docker deploy/docker
# Workspaces build in declaration order: contracts, platform, the services, then the web app.
RUN npm run build --workspaces --if-present

# Production dependencies of one service only, plus the built code of it and of the libraries it
# links, gathered in /bundle (see deploy/docker/bundle.sh).
FROM build AS bundle-gateway
RUN --mount=type=cache,target=/root/.npm sh deploy/docker/bundle.sh @cm/gateway

FROM build AS bundle-auth
RUN --mount=type=cache,target=/root/.npm sh deploy/docker/bundle.sh @cm/auth
RUN mkdir /first-admin

FROM build AS bundle-inventory
RUN --mount=type=cache,target=/root/.npm sh deploy/docker/bundle.sh @cm/inventory

FROM build AS bundle-media
RUN --mount=type=cache,target=/root/.npm sh deploy/docker/bundle.sh @cm/media

FROM build AS bundle-monitor
RUN --mount=type=cache,target=/root/.npm sh deploy/docker/bundle.sh @cm/monitor

# Nothing below writes to the image at run time: it runs with a read-only root filesystem
# (Kubernetes mounts an emptyDir at /tmp, docker-compose a tmpfs).
FROM base AS runtime
# What release an image is, for registries and scanners (OCI image annotations): the release
# build passes VERSION, REVISION (the commit), CREATED (RFC 3339) and SOURCE (the repository's URL);
# a local build says so. NODE_IMAGE again: an ARG before the first FROM is seen by FROM lines only.
ARG NODE_IMAGE
ARG VERSION=local
ARG REVISION=unknown
ARG CREATED=1970-01-01T00:00:00Z
ARG SOURCE=
LABEL org.opencontainers.image.vendor="Classroom Monitor" \
      org.opencontainers.image.base.name="${NODE_IMAGE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}"
ENV NODE_ENV=production
COPY deploy/docker/healthcheck.js /usr/local/lib/cm/healthcheck.js
# Each target's WORKDIR is its service, and its ENV names the port the health check asks.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["node", "/usr/local/lib/cm/healthcheck.js"]
CMD ["node", "dist/main.js"]
# The `node` user of the base image; numeric, so Kubernetes can verify runAsNonRoot.
USER 1000:1000

FROM runtime AS gateway
LABEL org.opencontainers.image.title="classroom-monitor-gateway" \
      org.opencontainers.image.description="Classroom Monitor: the HTTP API and web app"
COPY --from=bundle-gateway /bundle ./
COPY --from=build /app/web/dist web/dist
ENV HOST=0.0.0.0 PORT=8080 WEB_DIST_DIR=/app/web/dist
EXPOSE 8080
WORKDIR /app/services/gateway

FROM runtime AS auth
LABEL org.opencontainers.image.title="classroom-monitor-auth" \
      org.opencontainers.image.description="Classroom Monitor: users, sessions and sign-in"
COPY --from=bundle-auth /bundle ./
# Writable by auth alone, for its first administrator's generated password: docker-compose.yml
# mounts a named volume here, and a fresh volume takes this directory's owner.
COPY --from=bundle-auth --chown=1000:1000 --chmod=0700 /first-admin /var/lib/classroom-monitor
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=9101
EXPOSE 9101
WORKDIR /app/services/auth

FROM runtime AS inventory
LABEL org.opencontainers.image.title="classroom-monitor-inventory" \
      org.opencontainers.image.description="Classroom Monitor: buildings, rooms, equipment and alerts"
COPY --from=bundle-inventory /bundle ./
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=9102
EXPOSE 9102
WORKDIR /app/services/inventory

FROM runtime AS media
LABEL org.opencontainers.image.title="classroom-monitor-media" \
      org.opencontainers.image.description="Classroom Monitor: photos and diagrams in the object store"
COPY --from=bundle-media /bundle ./
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=9103
EXPOSE 9103
WORKDIR /app/services/media

# Root, because raw ICMP sockets need CAP_NET_RAW and Kubernetes cannot yet grant an added
# capability to a non-root process (no ambient capabilities). Run it with every capability dropped
# but NET_RAW: docker-compose.yml and the Helm chart do.
FROM runtime AS monitor
LABEL org.opencontainers.image.title="classroom-monitor-monitor" \
      org.opencontainers.image.description="Classroom Monitor: the ping sweeps of classroom equipment"
COPY --from=bundle-monitor /bundle ./
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=9104
EXPOSE 9104
USER 0:0
WORKDIR /app/services/monitor
