// Where findings are kept while the engine runs. Two kinds: *events* (something happened at a time: an out-of-order
// overwrite, a resume without Last-Event-ID) go straight into the FindingLog; *conditions* (a state that holds over a
// time span: cached but not subscribed) live in the ConditionSet while they hold and become a finding once they held
// for the settle time — so the millisecond between a read and its subscribe never shows up — and are logged as resolved
// when they end. Both merge by key, so one problem is one finding however often it recurs.
import { CATALOGUE, COVERAGE_REASONS } from './catalogue.ts';
import { SEVERITY_RANK, type CoverageReason, type Finding, type FindingId, type Severity } from './types.ts';
import type { Excuse } from '../engine/work-run.ts';

export interface FindingSpec {
  id: FindingId;
  /** The page document whose client it is about (two pages of a preserved log are two clients). */
  doc?: string;
  endpoint?: string;
  uri?: string;
  session?: string;
  reason?: string;
  detail?: string;
  /** Overrides the catalogue / reason severity. */
  severity?: Severity;
}

/**
 * A URI's coverage follows it across sessions: cached but not subscribed (or believed subscribed but not held) in one
 * session and in the next ones is one problem, not one per reconnect — a client that never resubscribes made URIs ×
 * reconnects findings. Such a finding is keyed without its session and names the latest one.
 */
export function followsUriAcrossSessions(id: FindingId): boolean {
  return id === 'cached-not-subscribed' || id === 'phantom-subscription';
}

/** The session a finding is keyed by. */
function keySession(s: Pick<FindingSpec, 'id' | 'session'>): string {
  return followsUriAcrossSessions(s.id) ? '' : (s.session ?? '');
}

export function findingKey(s: Pick<FindingSpec, 'id' | 'doc' | 'endpoint' | 'uri' | 'session'>): string {
  return `${s.id}|${s.doc ?? ''}|${s.endpoint ?? ''}|${s.uri ?? ''}|${keySession(s)}`;
}

/** The URI row a finding is about (the row's key: document, endpoint, URI), or undefined for a finding about no URI. */
export function findingRowKey(f: Pick<Finding, 'doc' | 'endpoint' | 'uri'>): string | undefined {
  return f.uri === undefined ? undefined : `${f.doc ?? ''} ${f.endpoint ?? ''} ${f.uri}`;
}

/** Do two specs have the same findingKey? (Field by field, as the key spells them.) */
function sameSubject(a: FindingSpec, b: FindingSpec): boolean {
  return a.id === b.id && (a.doc ?? '') === (b.doc ?? '') && (a.endpoint ?? '') === (b.endpoint ?? '') && (a.uri ?? '') === (b.uri ?? '') && keySession(a) === keySession(b);
}

export function severityOf(s: FindingSpec): Severity {
  if (s.severity) return s.severity;
  if (s.id === 'cached-not-subscribed' && s.reason && s.reason in COVERAGE_REASONS) {
    return COVERAGE_REASONS[s.reason as CoverageReason].severity;
  }
  return CATALOGUE[s.id].severity;
}

const EVIDENCE_CAP = 24;

function addEvidence(list: number[], seqs: readonly number[]): void {
  for (const s of seqs) {
    if (list.includes(s)) continue;
    list.push(s);
    // Keep the first and the most recent ones: the start of a problem and its latest proof.
    if (list.length > EVIDENCE_CAP) list.splice(EVIDENCE_CAP / 2, 1);
  }
}

interface Rec {
  spec: FindingSpec;
  key: string;
  firstT: number;
  lastT: number;
  evidence: number[];
  count: number;
  /**
   * Each occurrence's time span, as flat pairs (from, to), once it happened more than once (most findings happen once:
   * no list for them); capped like the evidence: the first and the latest.
   */
  spans: number[] | undefined;
}

/** Spans kept per finding (pairs): the first occurrence and the most recent ones. */
const SPANS_CAP = 24;

function addSpan(spans: number[], from: number, to: number): void {
  spans.push(from, to);
  if (spans.length > SPANS_CAP * 2) spans.splice(2, 2);
}

export class FindingLog {
  private recs = new Map<string, Rec>();

  record(spec: FindingSpec, firstT: number, lastT: number, evidence: readonly number[]): void {
    const key = findingKey(spec);
    const r = this.recs.get(key);
    if (!r) {
      const ev: number[] = [];
      addEvidence(ev, evidence);
      this.recs.set(key, { spec: { ...spec }, key, firstT, lastT, evidence: ev, count: 1, spans: undefined });
      return;
    }
    // The second occurrence: the first one's span is still firstT…lastT.
    r.spans ??= [r.firstT, r.lastT];
    r.firstT = Math.min(r.firstT, firstT);
    r.lastT = Math.max(r.lastT, lastT);
    r.count++;
    addSpan(r.spans, firstT, lastT);
    // The latest occurrence's reason and detail describe it best.
    r.spec = { ...spec };
    addEvidence(r.evidence, evidence);
  }

  get size(): number {
    return this.recs.size;
  }

  values(): IterableIterator<Rec> {
    return this.recs.values();
  }
}

export interface OpenCondition {
  key: string;
  spec: FindingSpec;
  since: number;
  evidence: number[];
  /** Held this long before it counts, when longer than the usual settle time (a server-requested retry wait). */
  settleMs?: number;
  /** The client's work that may still reach it (engine/work-run.ts): while that run goes on, it does not count. */
  run?: Excuse | undefined;
}

/** Per-subject slots: at most one open condition per finding id (a URI row holds its own). */
export type ConditionSlots = Record<'cached-not-subscribed' | 'phantom-subscription' | 'no-delivery-channel', OpenCondition | undefined>;
export type ConditionId = keyof ConditionSlots;

/** Fixed shape, emptied by assigning undefined (never `delete`): lookups stay fast on the hot path. */
export function newConditionSlots(): ConditionSlots {
  return { 'cached-not-subscribed': undefined, 'phantom-subscription': undefined, 'no-delivery-channel': undefined };
}

export class ConditionSet {
  readonly open = new Map<string, OpenCondition>();

  constructor(
    private log: FindingLog,
    readonly settleMs: number,
  ) {}

  /** The condition holds (from `t` if it was not open, or under a new key). */
  hold(slots: ConditionSlots, spec: FindingSpec & { id: ConditionId }, t: number, evidence: readonly number[], settleMs?: number, run?: Excuse): OpenCondition {
    const cur = slots[spec.id];
    // The same subject (hence the same key) needs no key string: a re-check of an open condition is the common case.
    const key = cur && sameSubject(cur.spec, spec) ? cur.key : findingKey(spec);
    if (cur && cur.key === key) {
      cur.spec = spec;
      // The excuse goes with the spec: a condition whose reason is no longer a loss is no longer excused.
      if (run !== undefined) cur.run = run;
      else if (cur.run !== undefined) cur.run = undefined;
      addEvidence(cur.evidence, evidence);
      return cur;
    }
    if (cur) this.release(slots, spec.id, t, []);
    const c: OpenCondition = { key, spec, since: t, evidence: [] };
    if (settleMs !== undefined && settleMs > this.settleMs) c.settleMs = settleMs;
    if (run !== undefined) c.run = run;
    addEvidence(c.evidence, evidence);
    slots[spec.id] = c;
    this.open.set(key, c);
    return c;
  }

  /** The condition no longer holds at `t`; if it lasted the settle time it stays in the log as resolved. */
  release(slots: ConditionSlots, id: ConditionId, t: number, evidence: readonly number[]): void {
    const cur = slots[id];
    if (!cur) return;
    slots[id] = undefined;
    if (this.open.get(cur.key) === cur) this.open.delete(cur.key);
    if (this.settled(cur, t)) this.log.record(cur.spec, cur.since, t, [...cur.evidence, ...evidence]);
  }

  /** Has the condition held long enough at `now` to be reported (and is no run of the client's still reaching for it)? */
  settled(c: OpenCondition, now: number): boolean {
    return now - c.since >= (c.settleMs ?? this.settleMs) && !(c.run !== undefined && c.run.covers(c.since, now, this.settleMs));
  }
}

/** A finding that holds at `now` but is computed, not stored (timers: cache age, re-read grace). */
export interface TimedFinding {
  spec: FindingSpec;
  firstT: number;
  evidence: readonly number[];
  /** false for an event that is due at `now` but not yet committed (missed-update after its grace). */
  open: boolean;
}

function toFinding(spec: FindingSpec, key: string, firstT: number, lastT: number, evidence: number[], count: number, open: boolean): Finding {
  const c = CATALOGUE[spec.id];
  const f: Finding = {
    id: spec.id,
    key,
    severity: severityOf(spec),
    firstT,
    lastT,
    evidence,
    count,
    open,
    title: c.title,
    explanation:
      spec.id === 'cached-not-subscribed' && spec.reason && spec.reason in COVERAGE_REASONS
        ? `${COVERAGE_REASONS[spec.reason as CoverageReason].explanation} ${c.explanation}`
        : c.explanation,
    fix: c.fix,
  };
  if (spec.doc !== undefined) f.doc = spec.doc;
  if (spec.endpoint !== undefined) f.endpoint = spec.endpoint;
  if (spec.uri !== undefined) f.uri = spec.uri;
  if (spec.session !== undefined) f.session = spec.session;
  if (spec.reason !== undefined) f.reason = spec.reason;
  if (spec.detail !== undefined) f.detail = spec.detail;
  return f;
}

/** All findings at `now`: logged ones, settled open conditions and timed ones, merged by key, worst first. */
export function assembleFindings(log: FindingLog, conditions: ConditionSet, timed: readonly TimedFinding[], now: number): Finding[] {
  const byKey = new Map<string, Finding>();
  // The spans of findings that happened more than once (most happen once: no list is made for them).
  const spansByKey = new Map<string, number[]>();
  const merge = (spec: FindingSpec, key: string, firstT: number, lastT: number, evidence: readonly number[], count: number, open: boolean, spans?: readonly number[]): void => {
    const f = byKey.get(key);
    if (!f) {
      byKey.set(key, toFinding(spec, key, firstT, lastT, [...evidence], count, open));
      if (spans !== undefined) spansByKey.set(key, [...spans]);
      return;
    }
    let list = spansByKey.get(key);
    if (!list) spansByKey.set(key, (list = [f.firstT, f.lastT]));
    if (spans !== undefined) for (let i = 0; i < spans.length; i += 2) addSpan(list, spans[i]!, spans[i + 1]!);
    else addSpan(list, firstT, lastT);
    f.firstT = Math.min(f.firstT, firstT);
    f.lastT = Math.max(f.lastT, lastT);
    f.count += count;
    if (open) {
      // The open instance is the current truth: its reason and severity win.
      const fresh = toFinding(spec, key, f.firstT, f.lastT, f.evidence, f.count, true);
      Object.assign(f, fresh);
    }
    addEvidence(f.evidence, evidence);
  };
  for (const r of log.values()) merge(r.spec, r.key, r.firstT, r.lastT, r.evidence, r.count, false, r.spans);
  for (const c of conditions.open.values()) {
    if (conditions.settled(c, now)) merge(c.spec, c.key, c.since, now, c.evidence, 1, true);
  }
  // An open timed finding holds until now; one that is an event due but not yet committed (missed-update) happened at
  // its instant, as it reads once committed (its Last does not tick, and the timeline does not shade it to now).
  // (A `now` a little behind the last frame — the panel's and the badge's clock against the page's — ends it at its
  // start, not before: a fuzz audit, 2026-12-05.)
  for (const t of timed) merge(t.spec, findingKey(t.spec), t.firstT, t.open ? Math.max(now, t.firstT) : t.firstT, t.evidence, 1, t.open);
  for (const [key, flat] of spansByKey) {
    const spans: Array<[number, number]> = [];
    for (let i = 0; i < flat.length; i += 2) spans.push([flat[i]!, flat[i + 1]!]);
    byKey.get(key)!.spans = spans.sort((a, b) => a[0] - b[0]);
  }
  const out = [...byKey.values()];
  for (const f of out) f.evidence.sort((a, b) => a - b);
  out.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.firstT - b.firstT || (a.key < b.key ? -1 : 1));
  return out;
}
