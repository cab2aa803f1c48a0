// Frame-time probe for the benchmark (off unless enabled): for each animation frame in which the panel worked, the
// main-thread time it cost — the flush (engine catch-up, snapshot, render) through the browser's style, layout and
// paint of that frame (up to a task posted from the frame, which runs after the rendering step), plus the time spent
// receiving frames from the port since the previous frame. Also the time from an import to its first paint.
export class FrameProbe {
  enabled = false;
  /** Work per animation frame, ms. */
  readonly frames: number[] = [];
  /** Import started → the import's first frame painted, ms. */
  importPaintMs: number | undefined;
  private ingestMs = 0;
  private importStart: number | undefined;

  enable(): void {
    this.enabled = true;
    this.frames.length = 0;
    this.ingestMs = 0;
  }

  ingest(ms: number): void {
    this.ingestMs += ms;
  }

  frameStart(): number {
    return performance.now();
  }

  frameEnd(start: number): void {
    const ingest = this.ingestMs;
    this.ingestMs = 0;
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      this.frames.push(performance.now() - start + ingest);
      ch.port1.close();
    };
    ch.port2.postMessage(0);
  }

  /** Called when the user picked or dropped a file. */
  importStarted(): void {
    this.importStart = performance.now();
    this.importPaintMs = undefined;
  }

  /** Called after the imported view was committed: the next frame paints it. */
  importCommitted(): void {
    const start = this.importStart;
    if (start === undefined) return;
    this.importStart = undefined;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        this.importPaintMs = performance.now() - start;
        ch.port1.close();
      };
      ch.port2.postMessage(0);
    });
  }
}
