import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './vite-precompress';
import { withoutRouteSummaries } from './vite-route-summaries';

const uploadOnly =
  /\/node_modules\/(@uppy|preact|lodash|nanoid|p-queue|p-retry|p-timeout|eventemitter3|is-network-error|mime-match|wildcard|namespace-emitter|@transloadit|classnames)\//;

const reactCore = /\/node_modules\/(react|react-dom|scheduler)\//;

const zod = /\/node_modules\/zod\//;
/** A contract file, not the route table's (`routes/`, which lib/api-schemas.ts loads) nor the index. */
const contract = /\/libs\/contracts\/src\/(?!routes\/|index\.ts$)[^/]+\.ts$/;
const zodReached = new Map<string, boolean>();
/** Whether a module imports zod, itself or through the modules it imports (statically). */
function reachesZod(id: string, importsOf: (id: string) => readonly string[]): boolean {
  if (zod.test(id)) return true;
  if (!zodReached.has(id)) {
    zodReached.set(id, false); // an import cycle reaches nothing new
    zodReached.set(
      id,
      importsOf(id).some((i) => reachesZod(i, importsOf)),
    );
  }
  return zodReached.get(id)!;
}

export default defineConfig({
  plugins: [
    withoutRouteSummaries(),
    react(),
    tailwindcss(),
    VitePWA({
      // A new release waits until the user chooses "Reload" (app/service-worker.ts): never mid-edit.
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Classroom Monitor',
        short_name: 'Classrooms',
        description: 'Classroom technology tracking and monitoring',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f1f5f9',
        theme_color: '#1e3a8a',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // Every screen's chunk, so that any screen opens offline; the precompressed copies are
        // the same files for the network, not for the cache.
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        // A reload or a deep link offline still opens the app. The API, the pictures, uploads
        // and the live events are never answered from the cache: the network or an error.
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/(api|objects|store)(\/|$)/],
        // The first visit's page is served by the worker as soon as it is installed, so that a
        // screen opened offline right after it comes from the cache.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        inlineWorkboxRuntime: true,
        // Hashed names change with their content: no cache-busting query needed.
        dontCacheBustURLsMatching: /^assets\//,
      },
    }),
    precompress(),
  ],
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
        // Zod and the contract files that define schemas are one chunk: the reply check needs
        // all of them before the first answer (lib/api-schemas.ts), and as some thirty small files
        // they held the browser's connections ahead of the session check (bench/web-phone).
        // The contract files without schemas (words, limits) are another, which the screens
        // read: without it, Rollup would put them in the schemas' chunk, and a screen would wait
        // for zod to draw even its placeholders.
        // Everything else Rollup splits along the screens' lazy imports.
        manualChunks: (id, { getModuleInfo }) => {
          if (uploadOnly.test(id)) return 'uppy';
          if (reactCore.test(id) || id.includes('commonjsHelpers')) return 'react';
          if (zod.test(id)) return 'schemas';
          if (!contract.test(id)) return undefined;
          return reachesZod(id, (m) => getModuleInfo(m)?.importedIds ?? []) ? 'schemas' : 'contract-words';
        },
      },
    },
  },
});
