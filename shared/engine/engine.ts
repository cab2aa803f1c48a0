// The reconstruction engine: feed it frames in seq order, ask it what holds at a time `now`. State is a pure function
// of the frames and `now` (the engine never reads a clock), so the background and the panel agree without syncing,
// a service-worker restart is a replay, and time travel is a replay up to a point.
import { Decoder } from '../decode/decoder.ts';
import { assembleFindings, type TimedFinding } from '../findings/finding-log.ts';
import { timedLifecycleFindings } from '../findings/lifecycle.ts';
import { timedRefreshFindings } from '../findings/refresh.ts';
import type { Finding } from '../findings/types.ts';
import type { Frame } from '../frames.ts';
import { EngineCore } from './core.ts';
import { deepCopy, type CopyStats } from './fork.ts';
import type { MessageList } from './message-list.ts';
import { onMessage } from './on-message.ts';
import { onWire } from './on-wire.ts';
import { buildSnapshot } from './snapshot.ts';
import type { ConnInfo, DecodeSink, WireEvent } from '../decode/types.ts';
import type { DecodedMessage, EngineOptions, EngineSnapshot } from './types.ts';

export interface ReplayLimit {
  /** Apply frames with seq ≤ this. */
  seq?: number;
  /** Apply frames with t ≤ this. */
  t?: number;
}

/** The decoder's sink: an object holding the core, not closures over it, so a fork (fork.ts) rebinds by copying. */
class CoreSink implements DecodeSink {
  /** onMessage stores a message in the store's columns and keeps no reference to it. */
  readonly keepsNoMessages = true;
  constructor(private readonly core: EngineCore) {}
  message(m: DecodedMessage, v: unknown, info: ConnInfo): void {
    onMessage(this.core, m, v, info);
  }
  wire(e: WireEvent, seq: number, t: number): void {
    onWire(this.core, e, seq, t);
  }
}

export class Engine {
  private core: EngineCore;
  private decoder: Decoder;
  private cached: { version: number; now: number; snap: EngineSnapshot } | undefined;
  private errors = 0;
  /** The first internal error, for bug reports (the frame that caused it was skipped). */
  firstError: string | undefined;

  constructor(readonly options: EngineOptions = {}) {
    const core = (this.core = new EngineCore(options));
    this.decoder = new Decoder(new CoreSink(core));
  }

  /**
   * Apply one frame. Frames must come in seq order, and are not to be changed once applied (the engine keeps the last
   * one for its time: EngineCore.lastFrame). Never throws.
   */
  apply(frame: Frame): void {
    const core = this.core;
    core.version++;
    core.counters.frames++;
    core.lastSeq = frame.seq;
    // Not frame.t: read here (every frame kind, many shapes), it was a new heap number per frame (core.lastT reads it).
    core.lastFrame = frame;
    core.counters.firstT ??= frame.t;
    if (frame.kind === 'capture-error') core.counters.captureErrors++;
    try {
      this.decoder.push(frame);
      core.flushParents(frame);
    } catch (e) {
      // A bug must not take the background or the panel down with it; it is counted and shown in the metrics.
      this.errors++;
      this.firstError ??= `seq ${frame.seq}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    }
  }

  applyAll(frames: readonly Frame[]): void {
    for (const f of frames) this.apply(f);
  }

  get frameCount(): number {
    return this.core.counters.frames;
  }

  /** What the engine keeps grows with this: the URIs of every client and the sessions and listens it has seen. */
  get stateSize(): number {
    let n = this.core.ledgers.length;
    for (const c of this.core.clients.values()) n += c.uris.size;
    return n;
  }

  get lastSeq(): number {
    return this.core.lastSeq;
  }

  get lastT(): number | undefined {
    return this.core.lastT;
  }

  /** Internal errors caught so far (expected 0). */
  get engineErrors(): number {
    return this.errors;
  }

  /** Messages decoded so far (also counted by an engine that keeps none). */
  get messageCount(): number {
    return this.decoder.messageCount;
  }

  /** The decoded messages so far, or the first `count` of them: a list a snapshot can carry. */
  messageList(count?: number): MessageList {
    const all = this.core.messages.view();
    return count === undefined || count >= all.count ? all : { count, store: all.store };
  }

  /**
   * An independent copy of this engine: fed the same frames afterwards, it reaches what this one would, and neither
   * sees the other's frames. The scrubber saves forks along a trace. Throws ForkError if the state cannot be copied.
   * `stats.objects` is set to the size of the copy, in objects (a typed array counts one per 400 bytes).
   */
  fork(stats?: CopyStats): Engine {
    // Every field is copied (one added later too), but the options, which are the caller's, and the snapshot cache.
    const memo = new Map<object, unknown>([[this.options, this.options]]);
    // The last frame applied is the caller's too (only its time is read): shared, not copied.
    const last = this.core.lastFrame;
    if (last !== undefined) memo.set(last, last);
    const cached = this.cached;
    this.cached = undefined;
    this.core.dropSpares();
    try {
      return deepCopy(this, memo, stats);
    } finally {
      this.cached = cached;
    }
  }

  /** A decoded message by index (see DecodedMessage.pair). */
  message(index: number): DecodedMessage | undefined {
    return this.core.messages.at(index);
  }

  findings(now: number): Finding[] {
    const timed: TimedFinding[] = [];
    timedRefreshFindings(this.core, now, timed);
    timedLifecycleFindings(this.core, now, timed);
    return assembleFindings(this.core.log, this.core.conds, timed, now);
  }

  /** The view at `now`. Cheap to call repeatedly: cached until the next frame or another `now`. */
  snapshot(now: number): EngineSnapshot {
    const c = this.cached;
    if (c && c.version === this.core.version && c.now === now) return c.snap;
    const snap = buildSnapshot(this.core, now, this.findings(now), this.errors);
    this.cached = { version: this.core.version, now, snap };
    return snap;
  }

  /** A fresh engine fed `frames` (up to a seq or a time, for time travel). */
  static replay(frames: readonly Frame[], options: EngineOptions = {}, upTo?: ReplayLimit | number): Engine {
    const e = new Engine(options);
    const limit: ReplayLimit = typeof upTo === 'number' ? { seq: upTo } : (upTo ?? {});
    for (const f of frames) {
      if (limit.seq !== undefined && f.seq > limit.seq) break;
      if (limit.t !== undefined && f.t > limit.t) break;
      e.apply(f);
    }
    return e;
  }
}
