// Renders docs/findings.md from the catalogue in shared/findings/catalogue.ts, so the document is the code's own words.
// The unit test compares the committed file with this rendering (UPDATE_DOCS=1 rewrites it).
import { CATALOGUE, COVERAGE_REASONS, FINDING_IDS, PHANTOM_REASONS } from '../../shared/findings/catalogue.ts';
import { nodeById, type NodeId } from '../../shared/flow/chart.ts';

/** Sub-cases other findings report in `reason`. */
const OTHER_REASONS: Record<string, [string, string][]> = {
  'no-delivery-channel': [
    ['never-opened', 'no GET stream was opened for the session'],
    ['refused', 'the server answered the GET stream with 405, or with 404 before any GET stream of the session worked'],
    ['closed', 'the GET stream closed and was not reopened (e.g. the SDK gave up after maxRetries)'],
  ],
  'cache-age-exceeded': [
    ['rule', 'a freshness rule you set matched (warning)'],
    ['ttl', 'the server\'s ttlMs (2026-07-28; 0 means "no hint") (warning; info while the URI is subscribed with a channel open: a change would be notified)'],
    ['learned', '3× the median interval between this URI\'s notifications, after 3 of them and 2 intervals; notifications within 250 ms are one burst (info)'],
    ['default', 'the global default, 10 minutes unless configured (info)'],
  ],
  'resume-gap': [
    ['no-last-event-id', 'the new GET sent no Last-Event-ID'],
    ['unknown-last-event-id', 'the Last-Event-ID is not the last id the page received'],
    ['no-event-ids', 'the session\'s GET stream carried no event ids (the server keeps no event store), so nothing could resume it; said when it is back, if the session held subscriptions (info: the client can only re-read)'],
    ['subscription-lapsed', 'per URI only: its subscription ended after it was read (the server lost it when its session ended or its listen dropped; the client unsubscribed, closed its listen, left it out of a new one) and the client subscribed or listened again without reading it since; any update in between was announced to nobody (info)'],
    ['lapse-reread-late', 'per URI only: as `subscription-lapsed`, but the client did read the URI again, only past the grace after subscribing again; the detail says how many ms late, and whether that read found the content changed (an update made while nothing was subscribed was missed: no missed-update, nothing was subscribed); until then the cache could have been stale (info, history; fix: read again right after subscribing again)'],
    ['lapse-caught-up', 'per URI only: as `subscription-lapsed`, but the client read the URI again within the grace after subscribing again and that read found the content changed: an update made while nothing was subscribed was missed, and the re-read caught it up (info, history; nothing for the client to fix)'],
  ],
  'session-expired-not-reinitialized': [
    ['http-404', 'the SDK server: 404 "Session not found"'],
    ['http-400', 'a 400 naming the session: server-everything\'s "No valid session ID provided", the SDK\'s "Server not initialized"'],
    ['stream-reconnected', 'legacy HTTP+SSE: the stream reconnected by itself to a new session, which the client used (or kept past the grace) without initialize'],
  ],
  'subscribe-unsupported': [
    ['not-advertised', 'capabilities.resources.subscribe is absent (the client could have known before sending); a -32601 answer to the same subscribe confirms it — one occurrence, the detail says both'],
    ['method-not-found', 'the server advertised the capability, yet answered -32601'],
  ],
  'protocol-header-missing': [
    ['missing', 'the header is absent'],
    ['mismatch', 'the header differs from the negotiated version (or from the `_meta` claim), or on 2026-07-28 `Mcp-Name` does not mirror the body'],
  ],
};

export function renderFindingsDoc(): string {
  const out: string[] = [
    '# Finding catalogue',
    '',
    '<!-- Generated from shared/findings/catalogue.ts by tests/support/findings-doc.ts; a unit test keeps them equal.',
    '     Edit the catalogue, then: UPDATE_DOCS=1 npx vitest run --project unit tests/unit/findings -->',
    '',
    'Every finding has a stable `id`, a severity, the URI and session it is about, a time span and the frame sequence numbers',
    'that prove it (evidence). A finding is *open* while its condition still holds at the evaluation time `now`; otherwise it',
    'is history (it happened, or it held for a while and was resolved). Conditions are reported only once they held for the',
    'grace period (2 s by default), so the moment between a read and its subscribe never shows up.',
    '',
    '| id | title | severity |',
    '|---|---|---|',
    ...FINDING_IDS.map((id) => `| [\`${id}\`](#${id}) | ${CATALOGUE[id].title} | ${CATALOGUE[id].severity} |`),
    '',
  ];
  for (const id of FINDING_IDS) {
    const c = CATALOGUE[id];
    out.push(`## ${id}`, '', `**${c.title}** — severity: ${c.severity}${c.node ? `; chart node ${c.node} (${nodeById(c.node as NodeId).en})` : ''}`, '');
    out.push(c.explanation, '', `**Fix.** ${c.fix}`, '');
    if (id === 'cached-not-subscribed') {
      out.push('| reason | meaning | severity |', '|---|---|---|');
      for (const [r, e] of Object.entries(COVERAGE_REASONS)) out.push(`| \`${r}\` | ${e.label}: ${e.explanation}${e.fix ? ` **Fix** (instead of the above): ${e.fix}` : ''} | ${e.severity} |`);
      out.push('', 'When the server does not advertise `resources.subscribe`, every reason is downgraded to info: polling is all it allows, and the fix given is to poll (as for a phantom subscription, reason `subscribe-not-offered`).', '');
    }
    if (id === 'phantom-subscription') {
      out.push('| reason | meaning | severity | fix |', '|---|---|---|---|');
      out.push(`| (none) | the server offers subscriptions; the client did not send them again | ${c.severity} | as above |`);
      for (const [r, e] of Object.entries(PHANTOM_REASONS)) out.push(`| \`${r}\` | ${e.label}: ${e.explanation} | ${e.severity} | ${e.fix} |`);
      out.push('');
    }
    const other = OTHER_REASONS[id];
    if (other) {
      out.push('| reason | meaning |', '|---|---|');
      for (const [r, e] of other) out.push(`| \`${r}\` | ${e} |`);
      out.push('');
    }
  }
  return out.join('\n');
}
