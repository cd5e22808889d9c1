# syntax=docker/dockerfile:1
# Runway's image. The build stage runs the project's own `npm run package` (the script CI runs and
# smoke-tests: .ci/run, scripts/smoke-artifact.sh); the final stage only copies its output, dist/, and runs
# it as an unprivileged user. Build: docker build --build-arg RUNWAY_REVISION=$(git rev-parse --short=12 HEAD) -t runway .
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV CI=true NEXT_TELEMETRY_DISABLED=1
# The npm the lock file and package.json's `allowScripts` are written for: an older npm (the image's own)
# ignores allowScripts and runs every dependency's install script.
ARG NPM_VERSION=11.19.1
RUN npm install -g npm@${NPM_VERSION} --no-audit --no-fund
# The dependencies first, so a change to the sources reuses this layer. npm ci runs Runway's postinstall
# (the Prisma client generator), which needs the schema.
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/
COPY prisma prisma
RUN npm ci --no-audit --no-fund
COPY . .
# The context has no .git (.dockerignore): the revision comes in as an argument.
ARG RUNWAY_REVISION=unknown
RUN RUNWAY_REVISION="${RUNWAY_REVISION}" npm run package

FROM ${NODE_IMAGE}
# git: repository imports run it. tini: PID 1 that forwards signals and reaps git's helper processes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 RUNWAY_DATA_DIR=/var/lib/runway
WORKDIR /app
# Owned by root and read-only to the server; it writes only to the data folder (and /tmp).
COPY --from=build /src/dist /app
RUN mkdir -p /var/lib/runway && chown node:node /var/lib/runway
USER node
VOLUME ["/var/lib/runway"]
EXPOSE 3000
# GitLab's readiness endpoint, from inside the container (loopback, which the monitoring allowlist admits).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/-/readiness`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains: readiness turns 503, held runner polls are answered, then the process exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "/app/bin/runway"]
CMD ["start"]
