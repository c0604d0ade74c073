// The admin application's build (DESIGN §15): `npm run build:admin` writes ./dist, which
// plugins/admin-app/serve.ts serves at /admin/. Everything is bundled: the app works offline.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** Every text file also as .gz beside it: the server sends that one to clients that accept gzip (@koa/send). */
function precompress(): Plugin {
  return {
    name: 'admin-app-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      for (const [name, item] of Object.entries(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(name)) continue;
        const source = item.type === 'chunk' ? item.code : item.source;
        writeFileSync(join(outDir, `${name}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Screens beyond the first load on demand; the first screen's budget is 400 KB gzip.
    chunkSizeWarningLimit: 800,
  },
});
