// Finding family "protocol": the client and server disagree with the protocol or with each other —
// subscribe-unsupported, unsolicited-update, protocol-header-missing, version-regression.
import type { HeaderMap } from '../frames.ts';
import { REDACTED_PREFIX } from '../redact.ts';
import { HEADER_REQUIRED_FROM, METHOD_NOT_FOUND } from '../decode/protocol.ts';
import type { ClientModel } from '../engine/client-model.ts';
import type { EngineCore } from '../engine/core.ts';
import type { SubscriptionLedger } from '../engine/ledger.ts';
import type { UriState } from '../engine/uri-state.ts';

/** Subscribes (their send seqs) kept per URI for their answer, at most: one -32601 confirms its own send's finding. */
const UNADVERTISED_KEPT = 4;

const NOT_ADVERTISED = 'the server capabilities have no resources.subscribe';

/**
 * The client asked for subscriptions the server never advertised (`seq`: the resources/subscribe or listen sent). Each
 * URI keeps the send's seq: a -32601 answer to it is the same occurrence, confirmed (checkSubscribeRejected).
 */
export function checkSubscribeCapability(core: EngineCore, c: ClientModel, uris: readonly string[], session: string | undefined, t: number, seq: number): void {
  if (!c.capsSeen || c.serverSubscribe === true) return;
  for (const uri of uris) {
    core.log.record(unsupportedSpec(c, uri, session, 'not-advertised', NOT_ADVERTISED), t, t, [seq]);
    const u = c.uri(uri);
    const kept = (u.unadvertisedSubscribes ??= []);
    kept.push(seq);
    if (kept.length > UNADVERTISED_KEPT) kept.shift();
  }
}

/** subscribe-unsupported about `uri` of client `c`, in `session` when there is one. */
function unsupportedSpec(c: ClientModel, uri: string, session: string | undefined, reason: 'not-advertised' | 'method-not-found', detail: string) {
  return { id: 'subscribe-unsupported' as const, doc: c.doc, endpoint: c.endpoint, uri, ...(session !== undefined ? { session } : {}), reason, detail };
}

/** A subscribe sent at `sentSeq` was answered: whether its send was said not advertised (and no longer kept). */
export function wasUnadvertised(u: UriState, sentSeq: number): boolean {
  const kept = u.unadvertisedSubscribes;
  const i = kept === undefined ? -1 : kept.indexOf(sentSeq);
  if (i < 0) return false;
  kept!.splice(i, 1);
  return true;
}

/**
 * The server rejected resources/subscribe (or subscriptions/listen) sent at `sentSeq` as an unknown method. When its
 * send already said the capability was not advertised, the answer confirms that occurrence (one subscribe, one
 * finding: it was counted twice, the drawer showing the answer's reason alone): its reason stays not-advertised (the
 * client could have known before sending), the detail says both. Else it is its own: a server that advertised the
 * capability and does not implement it.
 */
export function checkSubscribeRejected(core: EngineCore, u: UriState, code: number, session: string | undefined, t: number, sentSeq: number, seq: number): void {
  const confirms = wasUnadvertised(u, sentSeq);
  if (code !== METHOD_NOT_FOUND) return;
  const rejected = `the server answered ${code} (method not found)`;
  const spec = confirms ? unsupportedSpec(u.client, u.uri, session, 'not-advertised', `${NOT_ADVERTISED}; ${rejected}`) : unsupportedSpec(u.client, u.uri, session, 'method-not-found', rejected);
  if (confirms) core.log.confirm(spec, t, [sentSeq, seq]);
  else core.log.record(spec, t, t, [sentSeq, seq]);
}

/** An updated notification for a URI the delivering session or listen stream is not known to hold. */
/** Records `unsolicited-update` when the delivering session or listen holds no subscription for `u`; true if it did. */
export function checkUnsolicited(core: EngineCore, u: UriState, l: SubscriptionLedger | undefined, t: number, seq: number): boolean {
  // Without a session we cannot say whom it was for; a session picked up mid-way may hold things we never saw.
  if (!l || !l.observedFromStart) return false;
  if (l.live && l.uris.has(u.uri)) return false;
  if (u.subscribeInFlight > 0) return false;
  if (l.kind === 'listen' && !l.acked && l.requested?.includes(u.uri)) return false;
  // Sent just before the unsubscribe / session end reached the server.
  if (u.loss && t - u.loss.t < core.grace) return false;
  core.log.record(
    { id: 'unsolicited-update', doc: u.client.doc, endpoint: u.client.endpoint, uri: u.uri, session: l.label, detail: `${l.kind === 'listen' ? 'listen' : 'session'} ${l.label} holds no subscription for it` },
    t,
    t,
    [seq],
  );
  return true;
}

const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const B64_OPEN = '=?base64?';

function isSpaceOrTab(code: number): boolean {
  return code === 32 || code === 9;
}

/** An `Mcp-Name` value as the SDK server reads it: trimmed of spaces and tabs, a `=?base64?…?=` sentinel decoded as UTF-8. */
export function decodeMcpName(header: string): string | undefined {
  // Runs for every 2026 request with a name: a header with nothing around it to trim (the common case) is not copied.
  const n = header.length;
  const v = n > 0 && (isSpaceOrTab(header.charCodeAt(0)) || isSpaceOrTab(header.charCodeAt(n - 1))) ? header.replace(/^[ \t]+|[ \t]+$/g, '') : header;
  if (!(v.startsWith(B64_OPEN) && v.endsWith('?='))) return v;
  // As the SDK server reads it: what lies between (nothing for `=?base64?=`), canonical base64.
  const b64 = v.slice(B64_OPEN.length, Math.max(B64_OPEN.length, v.length - 2));
  if (!BASE64_CANONICAL.test(b64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * MCP-Protocol-Version on every HTTP request after initialization; on 2026-07-28 also Mcp-Method, and Mcp-Name
 * mirroring the body (tools/call and prompts/get name, resources/read uri, tasks/* taskId), as the SDK server checks.
 */
export function checkRequestHeaders(
  core: EngineCore,
  c: ClientModel,
  headers: HeaderMap,
  l: SubscriptionLedger | undefined,
  modern: { requestMethods: readonly string[]; metaVersion: string | undefined; mcpName: { field: string; value: string } | undefined } | undefined,
  t: number,
  seq: number,
): void {
  const sent = headers['mcp-protocol-version'];
  let reason: 'missing' | 'mismatch' | undefined;
  let detail = '';
  let session: string | undefined;
  if (modern) {
    if (modern.requestMethods.length === 0) return; // notifications are exempt on 2026-07-28
    // Runs for every request: the list of missing headers is only built when one is missing.
    const noMethod = headers['mcp-method'] === undefined;
    const name = modern.mcpName;
    const nameHeader = headers['mcp-name'];
    const noName = name !== undefined && nameHeader === undefined;
    if (sent === undefined || noMethod || noName) {
      const missing = [sent === undefined ? 'MCP-Protocol-Version' : '', noMethod ? 'Mcp-Method' : '', noName ? 'Mcp-Name' : ''].filter((x) => x !== '');
      reason = 'missing';
      detail = `${modern.requestMethods[0]} sent without ${missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0]}`;
    } else if (modern.metaVersion !== undefined && sent !== modern.metaVersion) {
      reason = 'mismatch';
      detail = `header says ${sent}, _meta says ${modern.metaVersion}`;
    } else if (name !== undefined && nameHeader !== undefined && !nameHeader.includes(REDACTED_PREFIX)) {
      // A header the user had redacted says nothing; otherwise the server refuses a name that does not mirror the body.
      const decoded = decodeMcpName(nameHeader);
      if (decoded !== name.value) {
        reason = 'mismatch';
        detail = decoded === undefined ? `Mcp-Name ${nameHeader} is not valid base64` : `Mcp-Name says ${decoded}, params.${name.field} is ${name.value}`;
      }
    }
  } else {
    if (!l || l.version === undefined || l.version < HEADER_REQUIRED_FROM) return;
    session = l.label;
    if (sent === undefined) {
      reason = 'missing';
      detail = `negotiated ${l.version}, but the request has no MCP-Protocol-Version`;
    } else if (sent !== l.version) {
      reason = 'mismatch';
      detail = `negotiated ${l.version}, header says ${sent}`;
    }
  }
  if (!reason) return;
  core.log.record({ id: 'protocol-header-missing', doc: c.doc, endpoint: c.endpoint, ...(session !== undefined ? { session } : {}), reason, detail }, t, t, [seq]);
}

/** A session negotiated a lower version than an earlier one on the same endpoint. */
export function checkVersion(core: EngineCore, c: ClientModel, version: string, session: string | undefined, t: number, seq: number): void {
  if (c.maxVersion !== undefined && version < c.maxVersion) {
    core.log.record(
      { id: 'version-regression', doc: c.doc, endpoint: c.endpoint, ...(session !== undefined ? { session } : {}), detail: `negotiated ${version} after ${c.maxVersion} earlier` },
      t,
      t,
      [seq],
    );
  }
  if (c.maxVersion === undefined || version > c.maxVersion) c.maxVersion = version;
  c.version = version;
}
