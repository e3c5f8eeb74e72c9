# The Retrace App server: `npm start` with Probot's standard environment, a health endpoint at /healthz.
# Jobs run on the Docker engine reachable through DOCKER_HOST (mount /var/run/docker.sock for the local executor),
# or on the repository's runners with RETRACE_EXECUTOR=actions (then no Docker access is needed).
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 RETRACE_DB_PATH=/data/app.sqlite
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY app.yml ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npx", "tsx", "src/app/main.ts"]
