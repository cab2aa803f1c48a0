// The detail drawer belongs to the view it was opened in (review 2026-12-06 #13: a frame's drawer opened in Messages
// stayed open over Findings, Resources and Sessions). Another view hides it; coming back shows it again, Back steps
// and all, unless the engine it was opened on has been replaced (Clear, a new page, an import, a trim, new settings).
import { describe, expect, it } from 'vitest';
import { PanelStore } from '../../../panel/store.ts';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';

timerAnimationFrames();

describe('the drawer per view', () => {
  it('hides with its view and comes back with it, Back steps kept', () => {
    const s = new PanelStore();
    s.view.value = 'messages';
    const finding = { kind: 'finding', key: 'F' } as const;
    const frame = { kind: 'frame', seq: 150 } as const;
    s.drawer.value = finding;
    s.openFromDrawer(frame);
    s.view.value = 'findings';
    expect(s.drawer.value).toBeNull();
    expect(s.drawerBackTarget()).toBeUndefined();
    // A drawer of the Findings view's own, then back to Messages: each view finds its own.
    const other = { kind: 'finding', key: 'G' } as const;
    s.drawer.value = other;
    s.view.value = 'messages';
    expect(s.drawer.value).toBe(frame);
    expect(s.drawerBackTarget()).toBe(finding);
    s.view.value = 'findings';
    expect(s.drawer.value).toBe(other);
    // Closed in its view: it stays closed when the view comes back.
    s.drawer.value = null;
    s.view.value = 'sessions';
    s.view.value = 'findings';
    expect(s.drawer.value).toBeNull();
  });

  it('drops a hidden drawer when the log under it went (Clear)', async () => {
    const s = new PanelStore();
    s.view.value = 'messages';
    s.drawer.value = { kind: 'frame', seq: 3 };
    s.view.value = 'resources';
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, lastSeq: 3, segment: 1, errors: 0 } });
    s.view.value = 'messages';
    expect(s.drawer.value).toBeNull();
    // The frames the store scheduled run while the file's stand-in for animation frames is still there.
    await settle();
  });
});
