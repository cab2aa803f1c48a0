// Test helpers around the engine: run a scripted log, and reduce findings to comparable tuples.
import { Engine, type EngineOptions, type Finding } from '../../shared/engine/index.ts';
import type { FrameLog } from './frame-log.ts';

export function run(log: FrameLog, options: EngineOptions = {}): Engine {
  const e = new Engine(options);
  e.applyAll(log.frames);
  return e;
}

/** `id uri reason severity` lines, sorted — compact enough to compare exactly. */
export function brief(findings: readonly Finding[], min: 'info' | 'warning' | 'error' = 'warning'): string[] {
  const rank = { info: 1, warning: 2, error: 3 };
  return findings
    .filter((f) => rank[f.severity] >= rank[min])
    .map((f) => [f.id, f.uri ?? '-', f.reason ?? '-', f.severity].join(' '))
    .sort();
}

/** Findings at `ms` after the last frame. */
export function findingsAfter(e: Engine, ms: number): Finding[] {
  return e.findings((e.lastT ?? 0) + ms);
}
