// Open findings carried across a trim at the log's cap (docs/panel.md, "The panel holds what the log holds"). A view
// rebuilt from what the log still holds knows nothing of the dropped frames: URIs cached in a session that ended and
// not subscribed in the next were an error until the reads and the session's end were trimmed, then the view said
// "0 errors" while nothing had changed on the page and the badge, whose engine kept that state, still said 40 (a
// stress review, 2026-12-06). So at a trim the view's open findings about a URI are kept aside, and shown with the
// rebuilt engine's findings for as long as that engine has no row for their URI (nothing in the frames it holds names
// it: the dropped frames were all that showed it). Once the URI is named again (read, subscribed, listed), the
// engine's own analysis takes over and the carried finding goes for good. They are frozen as of the trim (ages, a note
// turning into a warning with time: not re-judged), marked in their detail, and go when the view's page changes or the
// view is rebuilt for any other reason (Clear, settings, preserve log, an import). Findings about a session rather than
// a URI are not carried (a rebuild keys sessions anew). No per-frame cost: a copy at the trim, a filter per snapshot.
import { findingRowKey } from '../shared/findings/finding-log.ts';
import type { Finding } from '../shared/findings/types.ts';
import type { EngineSnapshot } from '../shared/engine/index.ts';
import type { Frame } from '../shared/frames.ts';

export const CARRIED_NOTE = 'carried across the log’s cap: the frames that showed it were dropped';

export interface Carried {
  /** The page segment the view was on: a new page drops them. */
  segment: number;
  findings: Finding[];
}

/**
 * What a rebuild at a trim carries of the view shown: its open findings about a URI (those it carried already too),
 * marked. Null when there are none.
 */
export function carryFrom(shown: EngineSnapshot | null, segment: number): Carried | null {
  if (!shown) return null;
  const findings: Finding[] = [];
  for (const f of shown.findings) {
    if (!f.open || f.uri === undefined) continue;
    findings.push(f.detail?.startsWith(CARRIED_NOTE) ? f : { ...f, detail: f.detail ? `${CARRIED_NOTE}; ${f.detail}` : CARRIED_NOTE });
  }
  return findings.length > 0 ? { segment, findings } : null;
}

/** Is this finding one carried across the cap? */
export function isCarried(f: Finding): boolean {
  return f.detail?.startsWith(CARRIED_NOTE) ?? false;
}

/** How many of `findings` are carried across the cap (open ones: a carried finding is open). */
export function carriedCount(findings: readonly Finding[]): number {
  let n = 0;
  for (const f of findings) if (isCarried(f)) n++;
  return n;
}

/**
 * `snap` with the carried findings whose URI it has no row for and whose key it does not have; those whose URI it
 * has a row for are dropped from `c` (the engine's analysis took over). `snap` itself is not changed (the engine
 * caches it). Returns `snap` when nothing is added.
 */
export function withCarried(snap: EngineSnapshot, c: Carried): EngineSnapshot {
  const rows = new Set<string>();
  for (const r of snap.uris) rows.add(r.key);
  c.findings = c.findings.filter((f) => !rows.has(findingRowKey(f)!));
  if (c.findings.length === 0) return snap;
  const keys = new Set<string>();
  for (const f of snap.findings) keys.add(f.key);
  const add = c.findings.filter((f) => !keys.has(f.key));
  return add.length === 0 ? snap : { ...snap, findings: [...snap.findings, ...add] };
}

/** The texts a frame carries (request and response bodies, SSE data, WebSocket messages). */
function payloadText(f: Frame): string | undefined {
  switch (f.kind) {
    case 'http-request':
      return f.body?.text;
    case 'http-body':
      return f.body.text;
    case 'sse-event':
    case 'ws-message':
      return f.data.text;
    default:
      return undefined;
  }
}

/**
 * Of `uris`, those that `frames[from..to)` name (their text, or its JSON-escaped form, in a body or message): frames
 * the log dropped before the view's engine took them may have changed what the view shows about such a URI (a read, an
 * unsubscribe, a session's end), so what it showed about them is not carried (docs/panel.md). Conservative: a URI
 * merely mentioned counts as named.
 */
export function namedIn(frames: readonly Frame[], from: number, to: number, uris: ReadonlySet<string>): Set<string> {
  const named = new Set<string>();
  if (uris.size === 0) return named;
  // JSON may escape a URI's quotes and backslashes, and (some servers) its slashes and its non-ASCII as \uXXXX
  // (JSON.stringify does not: those are added, in lower and upper hex).
  const forms = [...uris].map((u) => {
    const escaped = JSON.stringify(u).slice(1, -1);
    const texts = [u, escaped, escaped.replaceAll('/', '\\/')];
    for (const upper of [false, true]) {
      const ascii = escaped.replace(/[^\x00-\x7f]/g, (c) => {
        const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
        return `\\u${upper ? hex.toUpperCase() : hex}`;
      });
      if (ascii !== escaped) texts.push(ascii, ascii.replaceAll('/', '\\/'));
    }
    return [u, [...new Set(texts)]] as const;
  });
  for (let i = from; i < to && named.size < uris.size; i++) {
    const text = payloadText(frames[i]!);
    if (!text) continue;
    for (const [u, texts] of forms) if (!named.has(u) && texts.some((t) => text.includes(t))) named.add(u);
  }
  return named;
}

/** The URIs of the open findings `carryFrom` would carry of this snapshot. */
export function carriedUris(shown: EngineSnapshot | null): Set<string> {
  const uris = new Set<string>();
  for (const f of shown?.findings ?? []) if (f.open && f.uri !== undefined) uris.add(f.uri);
  return uris;
}
