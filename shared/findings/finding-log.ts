// Where findings are kept while the engine runs. Two kinds: *events* (something happened at a time: an out-of-order
// overwrite, a resume without Last-Event-ID) go straight into the FindingLog; *conditions* (a state that holds over a
// time span: cached but not subscribed) live in the ConditionSet while they hold and become a finding once they held
// for the settle time — so the millisecond between a read and its subscribe never shows up — and are logged as resolved
// when they end. Both merge by key, so one problem is one finding however often it recurs.
import { CATALOGUE, PHANTOM_REASONS, reasonEntry } from './catalogue.ts';
import { SEVERITY_RANK, type Finding, type FindingId, type Severity } from './types.ts';
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
  /**
   * A spec that holds only until a time: past `until.t` the finding reads as `until.then` (a polled never-subscribed URI
   * is a note while its re-reads keep it within its expected freshness, and the warning once its cache outlives that).
   * Open conditions are read through specAt, so the change needs no event.
   */
  until?: { t: number; then: FindingSpec };
}

/** The spec as it reads at `t` (see FindingSpec.until). */
export function specAt(s: FindingSpec, t: number): FindingSpec {
  return s.until !== undefined && t > s.until.t ? s.until.then : s;
}

/**
 * A URI's coverage follows it across sessions: cached but not subscribed (or believed subscribed but not held) in one
 * session and in the next ones is one problem, not one per reconnect — a client that never resubscribes made URIs ×
 * reconnects findings. Such a finding is keyed without its session and names the latest one.
 */
export function followsUriAcrossSessions(id: FindingId, uri?: string): boolean {
  // A URI's resume-gap too (a cache in doubt after every reconnect is one finding): not the session's own.
  return id === 'cached-not-subscribed' || id === 'phantom-subscription' || (id === 'resume-gap' && uri !== undefined);
}

/**
 * The session a finding is keyed by. A URI's resume-gap follows it too: a cache in doubt after every reconnect is one
 * finding, not URIs × reconnects (a review counted 1,765 notes on the bench trace).
 */
function keySession(s: Pick<FindingSpec, 'id' | 'session' | 'uri'>): string {
  return followsUriAcrossSessions(s.id, s.uri) ? '' : (s.session ?? '');
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
  return reasonEntry(s.id, s.reason)?.severity ?? CATALOGUE[s.id].severity;
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
  /**
   * This record's finding as it reads alone (no open condition or timed finding of its key merged in), built by
   * FindingLog.findings and kept until the record changes: frozen, so snapshots and forks share it. Undefined until
   * built, and again once `record` changed the record.
   */
  finding: Finding | undefined;
  /** Changed since its finding was last built (listed in FindingLog.changed). */
  dirty: boolean;
}

/** Spans kept per finding (pairs): the first occurrence and the most recent ones. */
const SPANS_CAP = 24;

function addSpan(spans: number[], from: number, to: number): void {
  spans.push(from, to);
  if (spans.length > SPANS_CAP * 2) spans.splice(2, 2);
}

export class FindingLog {
  private recs = new Map<string, Rec>();
  /**
   * The logged findings, kept between snapshots (most are closed and never change; 17,800 were rebuilt on every
   * snapshot at 300 sessions of reconnect churn): the findings of the records not changed since, in findings order.
   */
  private sorted: Finding[] = [];
  /** Records new or changed since `sorted` was brought up to date: their findings are built again then. */
  private changed: Rec[] = [];

  record(spec: FindingSpec, firstT: number, lastT: number, evidence: readonly number[]): void {
    const key = findingKey(spec);
    const r = this.recs.get(key);
    if (!r) {
      const ev: number[] = [];
      addEvidence(ev, evidence);
      const rec: Rec = { spec: { ...spec }, key, firstT, lastT, evidence: ev, count: 1, spans: undefined, finding: undefined, dirty: true };
      this.recs.set(key, rec);
      this.changed.push(rec);
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
    if (!r.dirty) {
      r.dirty = true;
      this.changed.push(r);
    }
  }

  /**
   * More of the latest occurrence of `spec`'s key, at `lastT` (an answer confirming what its request showed): the same
   * occurrence, not another — its end and evidence grow, its spec becomes `spec`, its count stays. A new one when the
   * key has none.
   */
  confirm(spec: FindingSpec, lastT: number, evidence: readonly number[]): void {
    const r = this.recs.get(findingKey(spec));
    if (!r) return this.record(spec, lastT, lastT, evidence);
    r.lastT = Math.max(r.lastT, lastT);
    const spans = r.spans;
    if (spans !== undefined) spans[spans.length - 1] = Math.max(spans[spans.length - 1]!, lastT);
    r.spec = { ...spec };
    addEvidence(r.evidence, evidence);
    if (!r.dirty) {
      r.dirty = true;
      this.changed.push(r);
    }
  }

  get size(): number {
    return this.recs.size;
  }

  values(): IterableIterator<Rec> {
    return this.recs.values();
  }

  get(key: string): Rec | undefined {
    return this.recs.get(key);
  }

  /**
   * Every record's finding as it reads alone, in findings order (compareFindings). The array and the findings are the
   * log's own — frozen findings, shared by every snapshot until their record changes: read them, never write them.
   */
  findings(): readonly Finding[] {
    const changed = this.changed;
    if (changed.length === 0) return this.sorted;
    let stale: Set<Finding> | undefined;
    const fresh: Finding[] = new Array(changed.length);
    for (let i = 0; i < changed.length; i++) {
      const r = changed[i]!;
      if (r.finding !== undefined) (stale ??= new Set()).add(r.finding);
      fresh[i] = r.finding = recordFinding(r);
      r.dirty = false;
    }
    this.changed = [];
    fresh.sort(compareFindings);
    const kept = stale === undefined ? this.sorted : this.sorted.filter(notIn, stale);
    this.sorted = mergeSorted(kept, fresh, undefined);
    return this.sorted;
  }
}

/** Array.filter's callback, with the set as `this` (no closure). */
function notIn(this: Set<Finding>, f: Finding): boolean {
  return !this.has(f);
}

/** Findings order: worst first, then the earliest, then by key (keys are unique: a total order). */
function compareFindings(a: Finding, b: Finding): number {
  return SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.firstT - b.firstT || (a.key < b.key ? -1 : 1);
}

/** Two lists in findings order merged into one, leaving out the findings of `a` that `skip` holds. */
function mergeSorted(a: readonly Finding[], b: readonly Finding[], skip: ReadonlySet<Finding> | undefined): Finding[] {
  const out: Finding[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length) {
    const x = a[i]!;
    if (skip !== undefined && skip.has(x)) {
      i++;
      continue;
    }
    if (j < b.length && compareFindings(b[j]!, x) < 0) out.push(b[j++]!);
    else {
      out.push(x);
      i++;
    }
  }
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** A record's finding alone (as assembleFindings made it when nothing else had its key), frozen. */
function recordFinding(r: Rec): Finding {
  const f = toFinding(r.spec, r.key, r.firstT, r.lastT, [...r.evidence], r.count, false);
  if (r.spans !== undefined) f.spans = spanPairs(r.spans);
  Object.freeze(f.evidence.sort(byNumber));
  if (f.spans !== undefined) {
    for (const p of f.spans) Object.freeze(p);
    Object.freeze(f.spans);
  }
  return Object.freeze(f);
}

function byNumber(a: number, b: number): number {
  return a - b;
}

function byStart(a: [number, number], b: [number, number]): number {
  return a[0] - b[0];
}

/** Flat span pairs as [from, to] pairs, by start. */
function spanPairs(flat: readonly number[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < flat.length; i += 2) spans.push([flat[i]!, flat[i + 1]!]);
  return spans.sort(byStart);
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
    if (this.settled(cur, t)) this.log.record(specAt(cur.spec, t), cur.since, t, [...cur.evidence, ...evidence]);
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
  const reason = reasonEntry(spec.id, spec.reason);
  const f: Finding = {
    id: spec.id,
    key,
    severity: severityOf(spec),
    firstT,
    lastT,
    evidence,
    count,
    open,
    title: reason?.title ?? c.title,
    explanation: reason?.title !== undefined ? reason.explanation : reason ? `${reason.explanation} ${c.explanation}` : c.explanation,
    // Without the capability (a note, severity set on the spec) subscribing is no fix: polling is, as for a phantom —
    // whatever the reason's own fix says (unsubscribed: "subscribe again"). (A polled URI's note, with `until`, keeps
    // the catalogue's fix.)
    fix: spec.id === 'cached-not-subscribed' && spec.severity === 'info' && spec.until === undefined ? PHANTOM_REASONS['subscribe-not-offered'].fix : (reason?.fix ?? c.fix),
  };
  if (spec.doc !== undefined) f.doc = spec.doc;
  if (spec.endpoint !== undefined) f.endpoint = spec.endpoint;
  if (spec.uri !== undefined) f.uri = spec.uri;
  if (spec.session !== undefined) f.session = spec.session;
  if (spec.reason !== undefined) f.reason = spec.reason;
  if (spec.detail !== undefined) f.detail = spec.detail;
  return f;
}

/**
 * All findings at `now`: logged ones, settled open conditions and timed ones, merged by key, worst first.
 * The logged findings no open condition or timed finding shares a key with are the log's own, kept between snapshots
 * (FindingLog.findings): frozen, shared by every snapshot (and fork) until their record changes. The others are built
 * here, for this call.
 */
export function assembleFindings(log: FindingLog, conditions: ConditionSet, timed: readonly TimedFinding[], now: number): Finding[] {
  const logged = log.findings();
  // The findings of the keys an open condition or a timed finding has: a logged record of the key is merged into a
  // copy of its own here, never into the log's (shared) finding.
  const byKey = new Map<string, Finding>();
  // The spans of findings that happened more than once (most happen once: no list is made for them).
  const spansByKey = new Map<string, number[]>();
  const add = (spec: FindingSpec, key: string, firstT: number, lastT: number, evidence: readonly number[], count: number, open: boolean, spans?: readonly number[]): void => {
    byKey.set(key, toFinding(spec, key, firstT, lastT, [...evidence], count, open));
    if (spans !== undefined) spansByKey.set(key, [...spans]);
  };
  const merge = (spec: FindingSpec, key: string, firstT: number, lastT: number, evidence: readonly number[], count: number, open: boolean): void => {
    let f = byKey.get(key);
    if (!f) {
      const r = log.get(key);
      if (!r) return add(spec, key, firstT, lastT, evidence, count, open);
      // The logged record comes first, as if all were merged in one pass: the log, then conditions, then timed.
      add(r.spec, r.key, r.firstT, r.lastT, r.evidence, r.count, false, r.spans);
      f = byKey.get(key)!;
    }
    let list = spansByKey.get(key);
    if (!list) spansByKey.set(key, (list = [f.firstT, f.lastT]));
    addSpan(list, firstT, lastT);
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
  for (const c of conditions.open.values()) {
    if (conditions.settled(c, now)) merge(specAt(c.spec, now), c.key, c.since, now, c.evidence, 1, true);
  }
  // An open timed finding holds until now; one that is an event due but not yet committed (missed-update) happened at
  // its instant, as it reads once committed (its Last does not tick, and the timeline does not shade it to now).
  // (A `now` a little behind the last frame — the panel's and the badge's clock against the page's — ends it at its
  // start, not before: a fuzz audit, 2026-12-05.)
  for (const t of timed) merge(t.spec, findingKey(t.spec), t.firstT, t.open ? Math.max(now, t.firstT) : t.firstT, t.evidence, 1, t.open);
  if (byKey.size === 0) return logged.slice();
  for (const [key, flat] of spansByKey) byKey.get(key)!.spans = spanPairs(flat);
  const own = [...byKey.values()];
  // The log's findings these replace (most open conditions and timed findings have no logged record of their key).
  let replaced: Set<Finding> | undefined;
  for (const f of own) {
    f.evidence.sort(byNumber);
    const r = log.get(f.key);
    if (r !== undefined) (replaced ??= new Set()).add(r.finding!);
  }
  own.sort(compareFindings);
  return mergeSorted(logged, own, replaced);
}
