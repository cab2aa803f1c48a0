// A trim at the log's cap that drops the frames an open error rested on (a review, 2026-12-06: 20 URIs cached in a
// session that ended, not subscribed in the next: "40 errors" became "0 errors" once the reads and the session's end
// were trimmed, the badge still at 40). The view's findings follow the rebuild; what it lost is counted and said.
import { describe, expect, it } from 'vitest';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { capNote } from '../../../panel/model/cap-note.ts';
import { findingCounts } from '../../../panel/model/uri-table.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

timerAnimationFrames();

const URL = 'http://localhost:3000/mcp';
const BAD = 'file:///bad/a.md';

function reconnectLog() {
  const log = new FrameLog('cap');
  log.pageStart('http://localhost:8080/app');
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(BAD, 'v1');
  c.subscribe(BAD);
  // A reconnect that resubscribes everything but BAD: its state rests on the frames above.
  c.delete();
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  c.subscribe('file:///ok.md');
  for (let i = 0; i < 1200; i++) c.read('file:///ok.md', `v${i}`);
  const all = log.frames.map((f) => ({ ...f, segment: 1 }));
  const last = all.at(-1)!.seq;
  const stats = (frames: number, errors: number) => ({ type: 'stats' as const, stats: { tabId: 1, frames, bytes: 0, dropped: all.length - frames, rejected: 0, lastSeq: last, kept: [all[0]!.seq], segment: 1, errors } });
  return { all, stats };
}

describe('a trim at the cap under an open panel', () => {
  it('drops an open error whose evidence went, and says how many of the view’s frames went and that the badge still counts it', async () => {
    const { all, stats } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    const before = findingCounts(s.snapshot.value!.findings);
    expect(s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD).map((f) => f.severity)).toContain('error');
    expect(s.capLost()).toBe(0);
    // The log dropped a few: within the panel's slack, the view holds them and has lost nothing.
    s.receive(stats(all.length - 500, before.error));
    await settle();
    expect(s.capLost()).toBe(0);
    expect(capNote(s.capLost(), before.error, before.error)).toBeNull();
    // The log dropped all but 2,000 (and kept the page-start): the view is rebuilt from them.
    s.asideSliceMs = Infinity;
    s.receive(stats(2000, before.error));
    await settle();
    const after = findingCounts(s.snapshot.value!.findings);
    expect(s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD)).toEqual([]);
    expect(after.error).toBeLessThan(before.error);
    const lost = s.capLost();
    expect(lost).toBe(all.length - 2000);
    const note = capNote(lost, after.error, before.error)!;
    expect(note.badgeDiffers).toBe(true);
    expect(note.text).toMatch(`dropped the oldest ${lost.toLocaleString('en-US')} frames of this view`);
    expect(note.text).toMatch(`the toolbar badge still counts ${before.error} error`);
  });
});
