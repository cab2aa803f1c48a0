import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.json' with { type: 'json' };

export default defineConfig({
  plugins: [crx({ manifest: manifest as never })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome111',
    sourcemap: false,
    rollupOptions: { input: { panel: 'panel.html' } },
  },
});
