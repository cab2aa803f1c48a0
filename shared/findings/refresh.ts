// Finding family "refresh": is the cached content as fresh as the traffic allows? stale-overwrite (an older answer
// written last), missed-update (content changed with no notification while subscribed), notified-not-reread and
// cache-age-exceeded (timers against `now`).
import type { EngineCore } from '../engine/core.ts';
import { sessionOf } from '../engine/core.ts';
import { contentDiffers, type ContentRef, type UriState } from '../engine/uri-state.ts';
import type { TimedFinding } from './finding-log.ts';

export interface ReadAnswer {
  order: number;
  reqSeq: number;
  /** Where the new content lives (stored in the cache entry). */
  ref: ContentRef;
  /** The new content, parsed (undefined when the answer was cut at capture). */
  text: string | undefined;
  lastModified: string | undefined;
  ttlMs: number | undefined;
  cacheScope: string | undefined;
}

/** A read answer arrives: judge it against the cache entry, then write it (last arrival wins, as a naive client does). */
export function applyReadAnswer(core: EngineCore, u: UriState, a: ReadAnswer, t: number, seq: number): void {
  const c = u.client;
  const outOfOrder = u.cached && a.order < u.writtenOrder;
  // A notification since the cached content was *asked for* explains a change (two quick notifications, two reads: the
  // second notification announces what the second read returns, even though it arrived before the first answer). Only
  // when none did is the content compared (comparing a document costs as much as reading it).
  const announced = u.lastNotifySeq > u.writtenReqSeq;
  const mustCompare = u.cached && (outOfOrder || (!announced && !u.staleSince));
  const changed = mustCompare && contentDiffers(u.content, a.text) === true;
  if (outOfOrder && changed) {
    core.counters.staleOverwrites++;
    core.log.record(
      {
        id: 'stale-overwrite',
        doc: c.doc, endpoint: c.endpoint,
        uri: u.uri,
        ...sessionOf(u),
        detail: `the read sent at seq ${a.reqSeq} was answered after a newer read (answered at seq ${u.writtenSeq}): the cache ends on the older content`,
      },
      t,
      t,
      [a.reqSeq, u.writtenSeq, seq],
    );
    u.staleSince = { t, seq, evidence: [a.reqSeq, u.writtenSeq, seq] };
  } else if (changed && !outOfOrder && !u.staleSince) {
    // The update was never announced. (After a stale overwrite, a changed read is the repair, not news.)
    // "Subscribed since that read" allows the common read-then-subscribe order: a subscription made within the
    // grace after the read counts.
    if (!announced) {
      if (u.held && u.heldSince !== undefined && u.heldSince - u.readAt <= core.grace) {
        u.pendingMissed = { t, seq, evidence: [u.readSeq, a.reqSeq, seq], held: true, ...sessionOf(u) };
        core.walk(u, ['E', 'F', 'G', 'I', 'K'], t, seq, [true, true, true, true, true]);
      } else if (!u.held) {
        core.counters.updatesDroppedInferred++;
        core.walk(u, ['E', 'F', 'H'], t, seq, [true, true, true]);
      }
    }
  }
  if (!(outOfOrder && changed)) u.staleSince = undefined;
  u.cached = true;
  u.readAt = t;
  u.readSeq = seq;
  u.setContent(a.ref);
  u.lastModified = a.lastModified ?? u.listedLastModified;
  u.ttlMs = a.ttlMs;
  u.cacheScope = a.cacheScope;
  u.writtenOrder = a.order;
  u.writtenSeq = seq;
  u.writtenReqSeq = a.reqSeq;
  core.step(u, 'J', t, seq);
  core.step(u, 'L', t, seq);
  if (outOfOrder && changed) core.step(u, 'M', t, seq, true);
}

/** A resources/read is sent: it answers a pending notification (late if past the grace). */
export function noteReadSent(core: EngineCore, u: UriState, t: number, seq: number): void {
  const p = u.pendingReread;
  if (!p) return;
  u.pendingReread = undefined;
  core.counters.notificationsReread += p.count;
  if (t - p.t >= core.grace) {
    core.log.record(
      { id: 'notified-not-reread', doc: u.client.doc, endpoint: u.client.endpoint, uri: u.uri, ...sessionOf(u), detail: `re-read only after ${Math.round(t - p.t)} ms` },
      p.t,
      t,
      [p.seq, seq],
    );
  }
  if (u.flowPending?.kind === 'reread') u.flowPending = undefined;
}

/** An updated notification arrives for a URI. */
export function noteNotified(core: EngineCore, u: UriState, t: number, seq: number): void {
  if (u.pendingMissed && t - u.pendingMissed.t < core.grace) u.pendingMissed = undefined; // late, but it came
  if (!u.cached || u.client.ended) return;
  core.counters.notificationsForCached++;
  if (u.pendingReread) u.pendingReread.count++;
  else {
    u.pendingReread = { t, seq, count: 1 };
    if (!u.flowPending) u.flowPending = { kind: 'reread', deadline: t + core.grace, seq };
  }
}

/** Findings that exist because of what time it is: notified-not-reread, cache-age-exceeded, a due missed-update. */
export function timedRefreshFindings(core: EngineCore, now: number, out: TimedFinding[]): void {
  for (const c of core.clients.values()) {
    if (c.ended) continue;
    for (const u of c.uris.values()) {
      const p = u.pendingReread;
      if (p && now - p.t >= core.grace) {
        out.push({
          spec: { id: 'notified-not-reread', doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...sessionOf(u), detail: `no resources/read in ${Math.round(now - p.t)} ms after ${p.count} notification(s)` },
          firstT: p.t,
          evidence: [p.seq],
          open: true,
        });
      }
      const m = u.pendingMissed;
      if (m && now - m.t >= core.grace) {
        const spec = { id: 'missed-update' as const, doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...(m.session !== undefined ? { session: m.session } : {}) };
        out.push({ spec, firstT: m.t, evidence: m.evidence, open: false });
      }
      if (u.staleSince && u.cached) {
        out.push({ spec: { id: 'stale-overwrite', doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...sessionOf(u) }, firstT: u.staleSince.t, evidence: u.staleSince.evidence, open: true });
      }
      if (u.cached) {
        const f = u.freshness(core.rules, core.defaultMaxAgeMs);
        const age = now - u.readAt;
        if (age > f.maxAgeMs) {
          out.push({
            spec: {
              id: 'cache-age-exceeded',
              doc: c.doc, endpoint: c.endpoint,
              uri: u.uri,
              ...sessionOf(u),
              reason: f.source,
              detail: `cached ${Math.round(age / 1000)} s ago; expected at most ${Math.round(f.maxAgeMs / 1000)} s (${f.source})`,
              // A guessed bound (learned cadence, global default) only suggests a look; a declared one is a warning.
              severity: f.source === 'rule' || f.source === 'ttl' ? 'warning' : 'info',
            },
            firstT: u.readAt + f.maxAgeMs,
            evidence: [u.readSeq],
            open: true,
          });
        }
      }
    }
  }
}
