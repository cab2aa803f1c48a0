// Exponential backoff with jitter, shared by every side that reconnects a port (relay, panel).
export class Backoff {
  private attempt = 0;
  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}
  next(): number {
    const ms = Math.min(this.maxMs, this.baseMs * 2 ** this.attempt++);
    return Math.round(ms * (0.75 + Math.random() * 0.5));
  }
  reset(): void {
    this.attempt = 0;
  }
}
