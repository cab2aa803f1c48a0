// A large export is written in pieces (the panel makes it over several tasks, a Blob per batch): the pieces joined
// must be the one-shot text byte for byte, for the trace (serializeTrace(exportTrace(…))) and the HAR
// (JSON.stringify(buildHar(…), null, 1)).
import { describe, expect, it } from 'vitest';
import { buildHar, buildHarSteps, harJsonSteps, type HarLog } from '../../../shared/har.ts';
import type { Frame } from '../../../shared/frames.ts';
import { exportTrace, serializeTrace, traceTextSteps, type ExportInput } from '../../../shared/trace/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';

function traffic(): Frame[] {
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/kb?token=abc');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet({ ids: 'e' });
  // Text JSON escapes and text it does not: line breaks, quotes, U+2028, an astral character, a lone surrogate.
  c.read('file:///docs/a.md', 'line 1\nline 2 "quoted" \u2028 \u{1F600} \ud800 \\ end');
  c.subscribe('file:///docs/a.md');
  log.wait(200);
  get.updated('file:///docs/a.md');
  return log.frames;
}

const big = syntheticTrace(3000, 50, 4).frames;

function joinHar(har: HarLog): { text: string; yields: number } {
  let text = '';
  let yields = 0;
  for (const s of harJsonSteps(har)) {
    yields++;
    text += s.parts.join('');
  }
  return { text, yields };
}

function joinTrace(input: ExportInput): { text: string; yields: number; frames: number[] } {
  let text = '';
  const frames: number[] = [];
  for (const s of traceTextSteps(input)) {
    frames.push(s.frames);
    text += s.parts.join('');
  }
  return { text, yields: frames.length, frames };
}

describe('the HAR in pieces', () => {
  it('is JSON.stringify(har, null, 1) byte for byte, in several pieces for a large one', () => {
    for (const frames of [traffic(), big, []]) {
      const har = buildHar(frames, { creatorVersion: '1', dropped: { frames: 3 }, now: 2e12 });
      const { text, yields } = joinHar(har);
      expect(text).toBe(JSON.stringify(har, null, 1));
      if (frames === big) expect(yields).toBeGreaterThan(10);
    }
  });

  it('splits at the log\'s own "entries" key, not at a page title or URL that holds the mark\'s text', () => {
    // harJsonSteps writes the log with a placeholder string for its entries; a page (its title is the page's URL, an
    // imported trace's URL can be any string) whose URL is that placeholder must not be where the entries go.
    for (const url of ['\u0000mcp-devtools-entries\u0000', 'http://x/?q=\u0000mcp-devtools-entries\u0000', '"entries": \u0000']) {
      const log = new FrameLog('doc1');
      log.pageStart(url);
      const c = new StreamableClient(log, 'http://localhost:3000/mcp');
      c.initialize({ sessionId: 'S1' });
      c.read('file:///docs/a.md', 'text');
      const har = buildHar(log.frames, { now: 2e12 });
      expect(har.log.pages.some((p) => p.title === url)).toBe(true);
      const { text } = joinHar(har);
      expect(text).toBe(JSON.stringify(buildHar(log.frames, { now: 2e12 }), null, 1));
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(har)));
    }
  });

  it('buildHarSteps yields along the way (0–1, rising) and returns what buildHar builds', () => {
    const steps = buildHarSteps(big, { now: 2e12 });
    const seen: number[] = [];
    let r = steps.next();
    for (; !r.done; r = steps.next()) seen.push(r.value);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= seen[i - 1]!))).toBe(true);
    expect(JSON.stringify(r.value)).toBe(JSON.stringify(buildHar(big, { now: 2e12 })));
  });
});

describe('the trace in pieces', () => {
  it('is serializeTrace(exportTrace(input)) byte for byte, redacted or not, empty or not, with extras', () => {
    const inputs: ExportInput[] = [
      { frames: traffic(), createdAt: 1.7e12, pageUrl: 'http://localhost:8080/kb?token=abc' },
      { frames: big, createdAt: '2026-12-06T00:00:00.000Z', pageUrl: 'http://x/', pageTitle: 'T', redaction: { enabled: false }, dropped: { frames: 7, rejected: 1 } },
      { frames: big, createdAt: 1.7e12, pageUrl: 'http://x/', extraSecretHeaders: ['X-Api-Key'], extra: { newer: { a: 1 } }, analysis: { freshnessRules: [], defaultMaxAgeMs: 5000 } },
      { frames: [], createdAt: 1.7e12, pageUrl: '' },
    ];
    for (const input of inputs) {
      const { text, yields, frames } = joinTrace(input);
      expect(text).toBe(serializeTrace(exportTrace(input)));
      expect(frames.at(-1)).toBe(input.frames.length);
      if (input.frames === big) expect(yields).toBeGreaterThan(5);
    }
  });
});
