// `npm run bench`: every benchmark in one run, a table, and as the last line one JSON object of all figures.
import { benchBackgroundHeap } from './background-heap.ts';
import { benchEngine } from './engine.ts';
import { benchPageOverhead } from './page-overhead.ts';
import { benchPanel } from './panel.ts';
import { benchPanelHeap } from './panel-heap.ts';
import { benchPanelScale } from './panel-scale.ts';

type Bench = () => Promise<Record<string, unknown> & { rows: string[][] }>;
const benches: Array<[string, Bench]> = [
  ['engine replay', benchEngine],
  ['page overhead', benchPageOverhead],
  ['panel', benchPanel],
  ['panel at scale', benchPanelScale],
  ['background heap', benchBackgroundHeap],
  ['panel heap', () => benchPanelHeap()],
];

const figures: Record<string, unknown> = {};
const rows: string[][] = [];
for (const [name, bench] of benches) {
  process.stderr.write(`running ${name}…\n`);
  const { rows: r, ...f } = await bench();
  rows.push(...r);
  Object.assign(figures, f);
}
const w = Math.max(...rows.map((r) => r[0]!.length));
console.log(`${'figure'.padEnd(w)}  ${'value'.padStart(10)}  budget`);
for (const [label, value, budget] of rows) console.log(`${label!.padEnd(w)}  ${value!.padStart(10)}  ${budget}`);
console.log(JSON.stringify(figures));
