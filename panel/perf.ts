// Frame-time probe for the benchmark (off unless enabled). For each animation frame in which the panel did work
// (a store flush, a timeline draw), the main-thread time it cost: from the first of its callbacks in that frame
// through the browser's style, layout and paint of the frame (up to a task posted from the frame, which runs after the
// rendering step), plus the time spent receiving frames from the port since the previous measured frame. Also the
// time from an import to its first paint.
export class FrameProbe {
  enabled = false;
  /** Work per animation frame, ms. */
  readonly frames: number[] = [];
  /** What each measured frame did (same order as `frames`): ingest, snapshot, render, canvas, joined by '+'. */
  readonly kinds: string[] = [];
  private kind = '';
  /** Import started → the import's first frame painted, ms. */
  importPaintMs: number | undefined;
  /** Where the import's time went (read, parse, validate, analyse, render), ms. */
  importPhases: Record<string, number> = {};
  private ingestMs = 0;
  private importStart: number | undefined;
  private lastMark = 0;
  private frameTs: number | undefined;

  enable(): void {
    this.enabled = true;
    this.frames.length = 0;
    this.kinds.length = 0;
    this.ingestMs = 0;
  }

  /** Says what the current frame does (for the breakdown). */
  did(what: string): void {
    if (this.enabled && !this.kind.includes(what)) this.kind = this.kind ? `${this.kind}+${what}` : what;
  }

  ingest(ms: number): void {
    this.ingestMs += ms;
  }

  /** Called at the start of every panel animation-frame callback (`ts` = the frame's timestamp). */
  work(ts: number): void {
    if (!this.enabled || ts === this.frameTs) return;
    this.frameTs = ts;
    const start = performance.now();
    const ch = new MessageChannel();
    this.kind = '';
    ch.port1.onmessage = () => {
      this.frames.push(performance.now() - start + this.ingestMs);
      this.kinds.push(this.kind || 'idle');
      this.kind = '';
      this.ingestMs = 0;
      ch.port1.close();
    };
    ch.port2.postMessage(0);
  }

  /** Called when the user picked or dropped a file. */
  importStarted(): void {
    this.importStart = performance.now();
    this.lastMark = this.importStart;
    this.importPaintMs = undefined;
    this.importPhases = {};
  }

  /** The import finished a phase (the time since the previous phase is booked to `name`). */
  importPhase(name: string): void {
    const now = performance.now();
    this.importPhases[name] = (this.importPhases[name] ?? 0) + (now - this.lastMark);
    this.lastMark = now;
  }

  /** Called after the imported view was committed: the next frame paints it. */
  importCommitted(): void {
    const start = this.importStart;
    if (start === undefined) return;
    this.importStart = undefined;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        const now = performance.now();
        this.importPaintMs = now - start;
        this.importPhases.render = now - this.lastMark;
        ch.port1.close();
      };
      ch.port2.postMessage(0);
    });
  }
}

/** The panel's one probe (the store and the timeline's canvas report to it). */
export const probe = new FrameProbe();
