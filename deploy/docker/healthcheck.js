// Docker HEALTHCHECK: exits 0 when the process's own liveness endpoint answers 2xx. A NATS
// microservice serves it on HTTP_PORT; the gateway, which has no HTTP_PORT, on PORT under /api.
// No curl or wget in the slim image, and Node has fetch.
const url = process.env.HTTP_PORT
  ? `http://127.0.0.1:${process.env.HTTP_PORT}/healthz`
  : `http://127.0.0.1:${process.env.PORT}/api/healthz`;

fetch(url, { signal: AbortSignal.timeout(2500) })
  .then((response) => process.exit(response.ok ? 0 : 1))
  .catch(() => process.exit(1));
