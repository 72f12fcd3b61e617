// Docker HEALTHCHECK: exits 0 when the process's own readiness endpoint answers 2xx, as the
// chart's readiness probe asks: the process serves, its PostgreSQL and NATS answer and it is not
// stopping. Another service or the object store being away does not count, so Compose's
// `service_healthy` means "can serve". A NATS microservice serves it on HTTP_PORT; the gateway,
// which has no HTTP_PORT, on PORT under /api. No curl or wget in the slim image, and Node has fetch.
const url = process.env.HTTP_PORT
  ? `http://127.0.0.1:${process.env.HTTP_PORT}/readyz`
  : `http://127.0.0.1:${process.env.PORT}/api/readyz`;

fetch(url, { signal: AbortSignal.timeout(2500) })
  .then((response) => process.exit(response.ok ? 0 : 1))
  .catch(() => process.exit(1));
