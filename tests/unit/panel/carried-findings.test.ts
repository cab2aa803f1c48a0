// Findings carried across a trim's rebuild: which are carried (open, about a URI), how they are marked, and when they
// are shown with the rebuilt engine's snapshot (no row for their URI, no finding of the same key) or go for good.
import { describe, expect, it } from 'vitest';
import type { EngineSnapshot, Finding, UriRow } from '../../../shared/engine/index.ts';
import { CARRIED_NOTE, carriedCount, carriedUris, carryFrom, isCarried, namedIn, withCarried } from '../../../panel/carried-findings.ts';
import type { Frame } from '../../../shared/frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { exportTrace } from '../../../shared/trace/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';

timerAnimationFrames();

const finding = (p: Partial<Finding> & { key: string }): Finding =>
  ({ id: 'cached-not-subscribed', severity: 'error', doc: 'd', endpoint: 'e', firstT: 0, lastT: 0, evidence: [1], count: 1, open: true, title: 't', explanation: '', fix: '', ...p }) as Finding;
const snap = (findings: Finding[], uris: string[] = []): EngineSnapshot => ({ findings, uris: uris.map((u) => ({ key: `d e ${u}`, uri: u, endpoint: 'e', doc: 'd' }) as UriRow) }) as unknown as EngineSnapshot;

describe('carried findings', () => {
  it('carries the open findings about a URI, marked once', () => {
    const shown = snap([
      finding({ key: 'a', uri: 'file:///a', detail: 'S1 ended' }),
      finding({ key: 'b', uri: 'file:///b', open: false }),
      finding({ key: 'c', id: 'session-expired' as Finding['id'] }),
    ]);
    const c = carryFrom(shown, 3)!;
    expect(c.segment).toBe(3);
    expect(c.findings.map((f) => [f.key, f.detail])).toEqual([['a', `${CARRIED_NOTE}; S1 ended`]]);
    // Carried again at the next trim: not marked twice.
    expect(carryFrom(snap(c.findings), 3)!.findings[0]!.detail).toBe(`${CARRIED_NOTE}; S1 ended`);
    expect(carryFrom(snap([finding({ key: 'c' })]), 1)).toBeNull();
    expect(carryFrom(null, 1)).toBeNull();
    expect(isCarried(c.findings[0]!)).toBe(true);
    expect(carriedCount([...c.findings, finding({ key: 'x', uri: 'file:///x' })])).toBe(1);
  });

  it("shown while the engine has no row for their URI and no finding of their key; gone for good once it has a row", () => {
    const c = carryFrom(snap([finding({ key: 'a', uri: 'file:///a' }), finding({ key: 'b', uri: 'file:///b' }), finding({ key: 'k', uri: 'file:///k' })]), 1)!;
    const own = finding({ key: 'k', uri: 'file:///k', severity: 'warning' });
    const rebuilt = snap([own], ['file:///b']);
    const shown = withCarried(rebuilt, c);
    // The engine's own finding of that key wins; b has a row: the engine's analysis took over.
    expect(shown.findings.map((f) => [f.key, isCarried(f)])).toEqual([['k', false], ['a', true]]);
    expect(rebuilt.findings).toEqual([own]);
    expect(c.findings.map((f) => f.key)).toEqual(['a', 'k']);
    // Nothing to add (a's key is the engine's too): the snapshot itself; k got a row, so it goes, a stays carried.
    const none = snap([finding({ key: 'a', uri: 'file:///a' })], ['file:///k']);
    expect(withCarried(none, c)).toBe(none);
    expect(c.findings.map((f) => f.key)).toEqual(['a']);
    withCarried(snap([], ['file:///a']), c);
    expect(c.findings).toEqual([]);
  });

  it('names the carried URIs that frames’ bodies and messages mention (raw or JSON-escaped), in the range only', () => {
    const uris = carriedUris(snap([finding({ key: 'a', uri: 'file:///a' }), finding({ key: 'b', uri: 'file:///b' }), finding({ key: 'c', uri: 'file:///c', open: false })]));
    expect([...uris]).toEqual(['file:///a', 'file:///b']);
    const frames = [
      { kind: 'http-request', body: { text: '{"params":{"uri":"file:///b"}}' } },
      { kind: 'sse-event', data: { text: '{"params":{"uri":"file:\\/\\/\\/a"}}' } },
    ] as unknown as Frame[];
    expect([...namedIn(frames, 1, 2, uris)]).toEqual(['file:///a']);
    expect([...namedIn(frames, 0, 2, uris)].sort()).toEqual(['file:///a', 'file:///b']);
    expect([...namedIn(frames, 0, 0, uris)]).toEqual([]);
  });

  it('names a URI whose non-ASCII a server \\u-escaped, in lower or upper hex, slashes escaped or not (code review 3, item 4b)', () => {
    const uri = 'file:///caf\u00e9/\u{1F600}.md';
    const uris = new Set([uri, 'file:///b']);
    const texts = ['{"uri":"file:///caf\\u00e9/\\ud83d\\ude00.md"}', '{"uri":"file:\\/\\/\\/caf\\u00E9\\/\\uD83D\\uDE00.md"}', `{"uri":"${uri}"}`];
    for (const text of texts) {
      const frames = [{ kind: 'http-body', body: { text } }] as unknown as Frame[];
      expect([...namedIn(frames, 0, 1, uris)]).toEqual([uri]);
    }
  });

  it('an import while paused drops the URIs named by frames gone in the pause: the view they were about went (code review 3, item 4a)', async () => {
    const s = new PanelStore();
    const gone = (): Set<string> => (s as unknown as { namedGone: Set<string> }).namedGone;
    // What a pause's dropQueuedGone noted.
    gone().add('file:///a');
    s.setPaused(true);
    const log = new FrameLog('imported-doc');
    log.pageStart('http://x/', true);
    new StreamableClient(log, 'http://x/mcp').initialize({ sessionId: 's' });
    const other = log.frames.map((f, i) => ({ ...f, segment: 1, seq: i + 1 }));
    s.showPrepared(s.prepareTrace('t.json', exportTrace({ frames: other, createdAt: other.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    s.closeImport();
    expect([...gone()]).toEqual([]);
    await settle();
  });
});
