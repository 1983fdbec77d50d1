# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the full dependency tree.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies and compiled code only, as a non-root user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json alerts.example.yaml ./
COPY config ./config
RUN ln -s /app/dist/cli.js /usr/local/bin/spotwatch && chmod +x /app/dist/cli.js \
  && mkdir -p /data && chown node:node /data
USER node
# The default config reads these: listen on every interface (publish the port), state in /data.
ENV SPOTWATCH_CONFIG=/app/config/spotwatch.yaml \
    SPOTWATCH_LISTEN=0.0.0.0:9464 \
    SPOTWATCH_STATE_DIR=/data
VOLUME ["/data"]
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:9464/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["spotwatch"]
CMD ["run"]
