// The traces engine-wide properties are checked on: every golden fixture recorded by the e2e suite, and a synthetic
// trace with both generations and reconnects. Each is loaded when its test runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame } from '../../shared/frames.ts';
import { parseTrace } from '../../shared/trace/index.ts';
import { syntheticTrace } from '../bench/synthetic-trace.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function traceCases(): [name: string, load: () => readonly Frame[]][] {
  return [
    ...readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.trace.json'))
      .map((f): [string, () => readonly Frame[]] => [
        f,
        () => {
          const p = parseTrace(readFileSync(join(FIXTURES, f), 'utf8'));
          if (!p.ok) throw new Error(p.error);
          return p.trace.frames;
        },
      ]),
    ['synthetic: 20,000 frames, both generations, reconnects', () => syntheticTrace(20_000, 60, 6).frames],
  ];
}
