// Bundles a browser test client (real SDK code) with esbuild into a cached file the static server can serve.
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OUT = resolve('.tmp/e2e-bundles');
const cache = new Map<string, string>();

/** Returns the bundled JS of `entry` (a path relative to the repo). */
export async function bundleClient(entry: string): Promise<string> {
  const hit = cache.get(entry);
  if (hit) return hit;
  mkdirSync(OUT, { recursive: true });
  const outfile = join(OUT, entry.replace(/[\\/]/g, '_').replace(/\.ts$/, '.js'));
  await build({
    entryPoints: [resolve(entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome111',
    outfile,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const js = readFileSync(outfile, 'utf8');
  cache.set(entry, js);
  return js;
}
