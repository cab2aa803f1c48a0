// Records what an end-to-end test captured as a golden trace under tests/fixtures/ (only with RECORD_FIXTURES=1), so
// the engine's golden tests run on real traffic from the real extension. Review the recording before committing it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Frame } from '../../shared/frames.ts';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';

export function recordFixture(name: string, frames: Frame[], pageUrl: string): void {
  if (!process.env.RECORD_FIXTURES) return;
  const dir = resolve('tests/fixtures');
  mkdirSync(dir, { recursive: true });
  const createdAt = frames.at(-1)?.t ?? 0;
  writeFileSync(resolve(dir, `${name}.trace.json`), serializeTrace(exportTrace({ frames, createdAt, pageUrl })));
}
