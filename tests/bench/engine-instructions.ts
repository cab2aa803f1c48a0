// The engine's replay cost in instructions, the steady measure wall time is not on this shared VM (the ratio moves
// ±10 % between runs of the same code): `npx tsx tests/bench/engine-instructions.ts [<repo dir>…]` bundles a replay of
// a 40,000-frame synthetic trace (both generations, reconnects) against each tree's `shared/` (default: this one) and
// counts instructions under valgrind's callgrind with single-threaded V8. Per tree it prints the instructions of one
// replay, and of JSON.parse of the same payloads, each taken as (count with 6 passes − count with 3) / 3, so start-up,
// compilation and warm-up cancel out. Back-to-back runs of one tree agreed within ±0.5M, but runs at other times spread
// by 4–15M (2026-12-06: the same tree 643.9M, 647.5M, 647.7M; JSON.parse 443–458M), and a change of inlining moves it
// by several M: compare trees in one run, and trust only differences well above ~5M. Needs
// valgrind (`apt-get install -y valgrind`); a few minutes per tree. A tool for judging a change, not part of
// `npm run bench`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const here = resolve(import.meta.dirname, '../..');
const trees = process.argv.length > 2 ? process.argv.slice(2).map((d) => resolve(d)) : [here];

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('engine-instructions: valgrind is not installed (apt-get install -y valgrind)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'engine-instructions-'));

/** A script replaying (or parsing) the trace N times, N from the environment. */
function bundle(tree: string, what: 'replay' | 'parse'): string {
  const entry = join(work, `${what}.ts`);
  writeFileSync(
    entry,
    `import { Engine } from ${JSON.stringify(join(tree, 'shared/engine/index.ts'))};
import { payloadsOf, syntheticTrace } from ${JSON.stringify(join(here, 'tests/bench/synthetic-trace.ts'))};
const trace = syntheticTrace(40_000, 100, 4);
const payloads = payloadsOf(trace.frames);
const n = Number(process.env.N ?? 0);
let sink = 0;
for (let i = 0; i < n; i++) {
  if (${JSON.stringify(what)} === 'replay') new Engine().applyAll(trace.frames);
  else for (const p of payloads) sink += (JSON.parse(p) as { id?: number }).id ?? 0;
}
if (sink < 0) console.log(sink);
`,
  );
  const out = join(work, `${what}-${Math.random().toString(36).slice(2)}.mjs`);
  execFileSync(join(here, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`, '--log-level=warning']);
  return out;
}

function instructions(script: string, n: number): number {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, '--single-threaded', script], {
    env: { ...process.env, N: String(n) },
    encoding: 'utf8',
  });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`callgrind gave no count for ${script}: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}

/** Instructions of one pass, start-up and warm-up cancelled out. */
function perPass(script: string): number {
  return (instructions(script, 6) - instructions(script, 3)) / 3;
}

try {
  const parse = perPass(bundle(here, 'parse'));
  console.log(`JSON.parse of the payloads: ${(parse / 1e6).toFixed(1)}M instructions per pass`);
  for (const tree of trees) {
    const replay = perPass(bundle(tree, 'replay'));
    console.log(`${tree}: replay ${(replay / 1e6).toFixed(1)}M instructions (÷ JSON.parse ${(replay / parse).toFixed(2)}), ${Math.round(replay / 40_000)} per frame in all`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
