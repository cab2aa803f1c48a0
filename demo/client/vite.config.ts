// Builds the demo page (demo/client → demo/client/dist). `npm start` runs this through vite's API; the page is plain DOM
// plus the two MCP SDK clients, so no framework plugin is needed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2048,
  },
});
