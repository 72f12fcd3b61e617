/** Redoc's browser bundle: one file, no network of its own, rendering the document in the page. */
export const referenceScriptPath = require.resolve('redoc/bundles/redoc.standalone.js');

// Relative addresses: the page works wherever a proxy mounts the gateway.
export const referencePage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Classroom Monitor API</title>
  </head>
  <body>
    <redoc spec-url="openapi.json" hide-download-button="false"></redoc>
    <script src="reference/redoc.js"></script>
  </body>
</html>
`;

/**
 * Stricter than the app's own policy where it can be, wider where Redoc needs it: the styles it
 * injects at run time, and the search index it builds in a worker made from a blob.
 */
export const referencePagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
