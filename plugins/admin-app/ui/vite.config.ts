// The admin application's build (DESIGN §15): `npm run build:admin` writes ./dist, which
// plugins/admin-app/serve.ts serves at /admin/. Everything is bundled: the app works offline.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Screens beyond the first load on demand; the first screen's budget is 400 KB gzip.
    chunkSizeWarningLimit: 800,
  },
});
