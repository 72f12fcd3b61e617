import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const uploadOnly =
  /\/node_modules\/(@uppy|preact|lodash|nanoid|p-queue|p-retry|p-timeout|eventemitter3|is-network-error|mime-match|wildcard|namespace-emitter|@transloadit|classnames)\//;

const reactCore = /\/node_modules\/(react|react-dom|scheduler)\//;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // The contracts are compiled into the bundle from source: one schema for form and server.
    alias: { '@cm/contracts': path.resolve(__dirname, '../libs/contracts/src/index.ts') },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/objects': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps would publish the source next to the app; a production build ships none.
    sourcemap: false,
    rollupOptions: {
      output: {
        // React changes less often than the app: a release that changes only our code leaves the
        // (immutably cached) react file in the browser's cache. The CommonJS helper goes with it,
        // or Rollup would put it in the upload chunk and every page would load Uppy for it.
        // Uploads load Uppy and what only it uses on first use, in a chunk of their own.
        // Everything else Rollup splits along the screens' lazy imports.
        manualChunks: (id) =>
          uploadOnly.test(id)
            ? 'uppy'
            : reactCore.test(id) || id.includes('commonjsHelpers')
              ? 'react'
              : undefined,
      },
    },
  },
});
