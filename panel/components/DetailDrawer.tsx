// The detail drawer: for a URI its facts and findings; for a finding its explanation, evidence (click → the frame)
// and fix; for a message its decoded fields, the request↔response pair, the exchange's headers (redacted at capture)
// and timings, and the raw JSON; for a frame its exchange; for a session its life and subscriptions (each URI a link to its drawer). Esc closes it.
import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DecodedMessage, EngineSnapshot, Finding, UriRow } from '../../shared/engine/index.ts';
import { reasonEntry } from '../../shared/findings/catalogue.ts';
import type { Frame, HeaderMap } from '../../shared/frames.ts';
import { frameJson } from '../../shared/frame-shape.ts';
import { clientKeyOf, docTag, findingClientTag, findingClientTags, pageFact, sessionClientTags, snapshotClientTags } from '../model/client-tags.ts';
import { formatAgo, formatBytes, formatClock, formatDuration } from '../model/format.ts';
import { capabilitiesOf, messageRangeAtSeq, NOT_INITIALIZED, sessionStreamsDetail, versionText } from '../model/sessions-view.ts';
import { messageSessionName, nameSessionsIn, sessionIdNamer, sessionIdTitle, sessionLabel, sessionMention, type SessionIdName } from '../model/session-label.ts';
import { arrayElementText, indentJson } from '../../shared/raw-json.ts';
import { multiLine } from '../printable-dom.ts';
import { expectedMaxAgeText, findingsForRow } from '../model/uri-table.ts';
import { flowNodeText } from '../model/flow-view.ts';
import { frameLabelAt } from '../model/frame-label.ts';
import type { DrawerTarget, PanelStore } from '../store.ts';

interface Props {
  store: PanelStore;
  target: DrawerTarget;
  snapshot: EngineSnapshot;
  onClose: () => void;
  open: (t: DrawerTarget) => void;
}

function Facts({ rows }: { rows: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Headers({ title, headers }: { title: string; headers: HeaderMap | undefined }) {
  if (!headers) return null;
  const entries = Object.entries(headers);
  return (
    <details open class="headers">
      <summary>
        {title} ({entries.length})
      </summary>
      <table>
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td class={v.startsWith('[redacted:') ? 'redacted' : ''}>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

const MAX_RAW = 200_000;

/** The text as captured, indented when it is JSON; past MAX_RAW characters its start only, as it is. */
function pretty(text: string): string {
  if (text.length <= MAX_RAW) {
    try {
      return indentJson(text);
    } catch {
      return text;
    }
  }
  return `${text.slice(0, MAX_RAW)}\n… (${text.length - MAX_RAW} more characters; shown as captured, not indented)`;
}

function Raw({ text, label = 'Raw' }: { text: string; label?: string }) {
  // Once per text, not on every render of the panel (a live snapshot re-renders it several times a second): indented
  // and escaped here, its lines kept, and marked so the text-node hook (printable-dom.ts) leaves it as it is.
  const shown = useMemo(() => multiLine(pretty(text)), [text]);
  return (
    <details open class="raw">
      <summary>{label}</summary>
      <pre>{shown}</pre>
    </details>
  );
}

function SeqLink({ seq, open, label }: { seq: number; open: Props['open']; label?: string }) {
  return (
    <button type="button" class="link" onClick={() => open({ kind: 'frame', seq })} aria-label={label ? `Frame ${seq}: ${label}` : `Frame ${seq}`}>
      #{seq}
      {label ? <span class="seq-label"> {label}</span> : null}
    </button>
  );
}

/** The messages the engine in view decoded from frame `seq` (a batch: several), found by binary search. */
function messagesAtSeq(store: PanelStore, seq: number): DecodedMessage[] {
  const engine = store.engineNow();
  const list = engine.messageList(engine.messageCount);
  const msgs: DecodedMessage[] = [];
  const { first, end } = messageRangeAtSeq(list, seq);
  for (let i = first; i < end; i++) {
    const m = engine.message(i);
    if (!m) break;
    msgs.push(m);
  }
  return msgs;
}

/**
 * A finding's evidence link, named by what the frame is (`#32 resources/read`, `#37 DELETE → 200`), not its number only;
 * from the message list's columns (the messages of the engine in view, as messagesAtSeq finds them), none decoded.
 */
function EvidenceLink({ store, seq, open }: { store: PanelStore; seq: number; open: Props['open'] }) {
  const engine = store.engineNow();
  const label = frameLabelAt(engine.messageList(engine.messageCount), seq, store.frameBySeq(seq), store.requestMethodOf(seq));
  return <SeqLink seq={seq} open={open} label={label || undefined} />;
}

/** A small button that copies `text` (a URI, a session id, raw JSON); says "Copied" for a moment. */
function CopyButton({ text, name }: { text: string; name: string }) {
  const [state, setState] = useState<'' | 'copied' | 'failed'>('');
  useEffect(() => {
    if (!state) return;
    const t = setTimeout(() => setState(''), 1500);
    return () => clearTimeout(t);
  }, [state]);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" class="copy" aria-label={name} title={name} onClick={copy} data-copy-state={state || undefined}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** The drawer's title with its Copy button beside it (outside the heading: the heading stays its name). */
function Title({ children, title, copy, copyName }: { children: ComponentChildren; title?: string; copy: string; copyName: string }) {
  return (
    <div class="drawer-head">
      <h3 class="drawer-title" title={title}>
        {children}
      </h3>
      <CopyButton text={copy} name={copyName} />
    </div>
  );
}

function FindingBlock({ store, snapshot, f, open, compact = false }: { store: PanelStore; snapshot: EngineSnapshot; f: Finding; open: Props['open']; compact?: boolean }) {
  // Its reason in words (a phantom's subscribe-not-offered showed as its code).
  const reason = reasonEntry(f.id, f.reason);
  // Sessions as the views name them (a WebSocket's `WebSocket #2`); its client's tag when the findings are of several.
  const name = sessionIdNamer(snapshot.sessions);
  const client = findingClientTag(findingClientTags(snapshot), f);
  return (
    <article class={`finding finding-${f.severity}${f.open ? ' open' : ' closed'}`} data-finding={f.id} data-finding-key={f.key}>
      <h4>
        <span class={`badge sev-${f.severity}`}>{f.severity}</span> {f.title} {f.open ? null : <span class="muted">(resolved / past)</span>}
        {compact ? (
          <button type="button" class="link" onClick={() => open({ kind: 'finding', key: f.key })}>
            details
          </button>
        ) : null}
      </h4>
      <p class="finding-id">
        <code>{f.id}</code>
        {f.reason ? <span> · {reason?.label ?? f.reason}</span> : null}
        {f.session ? <span title={sessionIdTitle(f.session, name)}> · {sessionMention(f.session, name)}</span> : null}
        {client ? <span class="finding-client" title={f.endpoint}> · {client}</span> : null}
      </p>
      {f.detail ? <p>{nameSessionsIn(f.detail, name)}</p> : null}
      {compact ? null : (
        <>
          <p>{f.explanation}</p>
          {reason && !f.explanation.includes(reason.explanation) ? <p class="muted">{reason.explanation}</p> : null}
          <h5>Fix</h5>
          <p class="fix">{f.fix}</p>
          <Facts
            rows={[
              ['First', formatClock(f.firstT)],
              ['Last', formatClock(f.lastT)],
              ['Count', String(f.count)],
              // A finding that held several times: when (the times between, it did not hold).
              ...(f.spans ? ([['Held', multiLine(f.spans.map(([a, b], i) => `${formatClock(a)} – ${f.open && i === f.spans!.length - 1 ? 'now' : formatClock(b)}`).join('\n'))]] as Array<[string, ComponentChildren]>) : []),
            ]}
          />
        </>
      )}
      <p class="evidence">
        Evidence:{' '}
        {f.evidence.map((s) => (
          <EvidenceLink key={s} store={store} seq={s} open={open} />
        ))}
      </p>
    </article>
  );
}

/** The document whose client read the URI: its URL, and whether it is the top page or an iframe. */
function pageOf(snapshot: EngineSnapshot, row: UriRow): string {
  const page = snapshot.clients.find((c) => c.doc === row.doc && c.endpoint === row.endpoint)?.page;
  const tag = snapshotClientTags(snapshot).get(clientKeyOf(row));
  const where = page ? `${page.url} (${page.top ? 'top page' : 'iframe'})` : '— (its page load is not in view)';
  return tag ? `${where}; shown as “${tag}”` : where;
}

/** The cached content's lastModified (its read's answer's); a URI only listed shows the list's. */
function lastModifiedText(row: UriRow): string {
  if (row.lastModified !== undefined) return row.cached ? row.lastModified : `${row.lastModified} (listed)`;
  return row.cached ? '— (the read’s answer has none)' : '—';
}

/** The server's version as the latest resources/list gave it, when it differs from the cache's: when it was listed. */
function listedText(row: UriRow): string {
  const when = row.listedAt === undefined ? '' : row.cacheReadAt !== undefined && row.listedAt > row.cacheReadAt ? `, listed ${formatClock(row.listedAt)}, after the read` : `, listed ${formatClock(row.listedAt)}, before the read`;
  return `${row.listedLastModified}${when}`;
}

function UriDetail({ store, row, snapshot, open }: { store: PanelStore; row: UriRow; snapshot: EngineSnapshot; open: Props['open'] }) {
  const findings = findingsForRow(snapshot.findings, row);
  const now = snapshot.now;
  return (
    <>
      <Title title={row.uri} copy={row.uri} copyName="Copy URI">
        {row.uri}
      </Title>
      <Facts
        rows={[
          ['Endpoint', row.endpoint],
          ['Page', pageOf(snapshot, row)],
          ['Status', <span class={`sev-${row.status}`}>{row.status}</span>],
          ['Cached', row.cached ? `yes, ${formatDuration(row.cacheAgeMs ?? 0)} old (read ${formatClock(row.cacheReadAt ?? 0)})` : row.listed ? 'no (listed only)' : 'no'],
          ['Expected max age', expectedMaxAgeText(row)],
          ['Size', formatBytes(row.size)],
          ['Content hash', row.contentHash ?? '—'],
          ['lastModified', lastModifiedText(row)],
          ...(row.cached && row.listedLastModified !== undefined && row.listedLastModified !== row.lastModified
            ? [['Listed lastModified', listedText(row)] as [string, string]]
            : []),
          ['ttlMs', row.ttlMs === undefined ? '—' : String(row.ttlMs)],
          ['Client believes subscribed', row.clientBelievesSubscribed ? 'yes' : 'no'],
          ['Server side holds it', row.serverHasSubscription ? `yes (${row.heldBy.map(sessionIdNamer(snapshot.sessions)).join(', ')})` : 'no'],
          ['Delivery channel open', row.deliveryChannelOpen ? 'yes' : 'no'],
          ['Last notification', formatAgo(row.lastNotifyT, now)],
          ['Last read sent', row.lastReadFailed ? `${formatAgo(row.lastReadT, now)} — failed: ${row.lastReadFailed}` : formatAgo(row.lastReadT, now)],
          ['Reads in flight', String(row.readsInFlight)],
          ['Notifications', String(row.notifications)],
          ['Flow node', flowNodeText(row.flowNode)],
        ]}
      />
      <h4>Findings ({findings.length})</h4>
      {findings.length === 0 ? <p class="muted">Nothing wrong with this URI.</p> : findings.map((f) => <FindingBlock key={f.key} store={store} snapshot={snapshot} f={f} open={open} />)}
    </>
  );
}

function exchangeTimings(frames: Frame[]): Array<[string, string]> {
  const req = frames.find((f) => f.kind === 'http-request');
  const res = frames.find((f) => f.kind === 'http-response');
  const end = frames.find((f) => f.kind === 'http-end');
  if (!req) return [];
  const out: Array<[string, string]> = [['Request sent', formatClock(req.t)]];
  if (res) out.push(['Response head', `${formatClock(res.t)} (+${formatDuration(res.t - req.t)})`]);
  if (end && end.kind === 'http-end') out.push(['Ended', `${formatClock(end.t)} (+${formatDuration(end.t - req.t)}), ${end.outcome}${end.error ? `: ${end.error.name} ${end.error.message}` : ''}`]);
  const events = frames.filter((f) => f.kind === 'sse-event').length;
  if (events) out.push(['SSE events', String(events)]);
  return out;
}

/** `upTo`: the last frame of the state shown (the scrubber's stop while replaying): what came after is not shown. */
function Exchange({ store, conn, open, upTo }: { store: PanelStore; conn: string; open: Props['open']; upTo: number }) {
  const frames = store.framesOfConn(conn).filter((f) => f.seq <= upTo);
  const [all, setAll] = useState(false);
  const req = frames.find((f) => f.kind === 'http-request');
  const res = frames.find((f) => f.kind === 'http-response');
  const ws = frames.find((f) => f.kind === 'ws-connect');
  const wsClose = frames.find((f) => f.kind === 'ws-close');
  return (
    <section class="exchange">
      <h4>Exchange</h4>
      {req && req.kind === 'http-request' ? (
        <p>
          <code>
            {req.method} {req.url}
          </code>
          {res && res.kind === 'http-response' ? <span> → {res.status}</span> : null}
        </p>
      ) : null}
      {ws && ws.kind === 'ws-connect' ? (
        <p>
          <code>WebSocket {ws.url}</code>
          {wsClose && wsClose.kind === 'ws-close' ? <span> → closed {wsClose.code}{wsClose.wasClean ? '' : ' (not clean)'}</span> : null}
        </p>
      ) : null}
      <Facts rows={exchangeTimings(frames)} />
      <Headers title="Request headers" headers={req && req.kind === 'http-request' ? req.headers : undefined} />
      <Headers title="Response headers" headers={res && res.kind === 'http-response' ? res.headers : undefined} />
      <p class="evidence">
        Frames:{' '}
        {(all ? frames : frames.slice(0, 40)).map((f) => (
          <SeqLink key={f.seq} seq={f.seq} open={open} />
        ))}
        {frames.length > 40 && !all ? (
          // Every frame reachable (a long GET stream's last events were not): the rest on demand.
          <button type="button" class="link" onClick={() => setAll(true)}>
            … {frames.length - 40} more
          </button>
        ) : null}
      </p>
    </section>
  );
}

function MessageDetail({ store, m, open, upTo, now, name }: { store: PanelStore; m: DecodedMessage; open: Props['open']; upTo: number; now: number; name: SessionIdName }) {
  const engine = store.engineNow();
  // While replaying, the state at the stop: an answer that came later is not shown (the Messages list stops there
  // too; the drawer showed the future: a drawer audit, 2026-12-05).
  const later = useMemo(() => (m.pair !== undefined ? engine.message(m.pair) : undefined), [engine, m.pair]);
  const pair = later !== undefined && later.seq <= upTo ? later : undefined;
  // The message's own text: a batch element's slice of the batch, as captured.
  const raw = useMemo(() => (m.batch === undefined ? m.raw : (arrayElementText(m.raw, m.batch) ?? m.raw)), [m.raw, m.batch]);
  const noAnswerEver = useMemo(
    () => (m.kind === 'request' && m.pair === undefined ? engine.messageList().store.noAnswers.find((x) => x.request === m.index) : undefined),
    // (The engine object stays while live; its list of requests with no answer grows.)
    [engine, engine.messageList().store.noAnswers.length, m.kind, m.pair, m.index],
  );
  const noAnswer = noAnswerEver !== undefined && noAnswerEver.t <= now ? noAnswerEver : undefined;
  return (
    <>
      <Title copy={raw} copyName="Copy JSON">
        {m.dir === 'out' ? '↑' : '↓'} {m.method ?? m.kind} {m.id !== undefined && m.id !== null ? <span class="muted">id {String(m.id)}</span> : null}
      </Title>
      <Facts
        rows={[
          ['Kind', m.kind + (m.known ? '' : ' (unknown method)')],
          ['Time', formatClock(m.t)],
          ['Frame', <SeqLink seq={m.seq} open={open} />],
          ['Direction', m.dir === 'out' ? 'client → server' : 'server → client'],
          ['Transport', `${m.transport} (${m.streamKind})`],
          ['Generation / version', `${m.generation}${m.version ? ` / ${m.version}` : ''}`],
          ['Endpoint', m.endpoint],
          ['Session', messageSessionName(m, name)],
          ['URI', m.uri ?? '—'],
          ['SSE id', m.sseId ?? '—'],
        ]}
      />
      {m.problem ? <p class="problem-text">Problem: {m.problem}</p> : null}
      {m.truncated ? <p class="muted">Truncated at capture: {formatBytes(m.bytes)} in full, hash {m.hash}</p> : null}
      {pair ? (
        <p class="pair">
          {m.kind === 'request' ? 'Response' : 'Request'}:{' '}
          <button type="button" class="link" onClick={() => open({ kind: 'message', index: pair.index })}>
            {pair.kind} {pair.method ?? ''} at {formatClock(pair.t)}
          </button>{' '}
          <span class="muted">({formatDuration(Math.abs(pair.t - m.t))})</span>
        </p>
      ) : noAnswer ? (
        <p class="muted">
          No response, and none can come: {noAnswer.why} at {formatClock(noAnswer.t)}.
        </p>
      ) : m.kind === 'request' ? (
        <p class="muted">No response yet.</p>
      ) : null}
      <Raw text={raw} label={m.batch !== undefined ? `Raw (element ${m.batch} of a batch)` : 'Raw'} />
      <Exchange store={store} conn={m.conn} open={open} upTo={upTo} />
    </>
  );
}

function FrameDetail({ store, f, open, upTo, snapshot }: { store: PanelStore; f: Frame; open: Props['open']; upTo: number; snapshot: EngineSnapshot }) {
  // The messages of the engine in view, looked up in its own list: the snapshot on screen may be an older engine's
  // (a rebuild swapped in, a reset catching up), whose numbering differs (an index past the new engine's end crashed
  // the drawer, and with it the page).
  const msgs = messagesAtSeq(store, f.seq);
  const json = useMemo(() => frameJson(f), [f]);
  const body = f.kind === 'http-request' ? f.body : f.kind === 'http-body' ? f.body : f.kind === 'sse-event' ? f.data : f.kind === 'ws-message' ? f.data : undefined;
  const { seq, t, kind } = f;
  return (
    <>
      <Title copy={json} copyName="Copy JSON">
        Frame #{seq} <span class="muted">{kind}</span>
      </Title>
      {/* Its page by URL and the tag the views show it by; the browser frame and segment numbers after (they were all it said). */}
      <Facts rows={[['Time', formatClock(t)], ['Page', pageFact(snapshot.clients, f.doc, docTag(snapshot, f.doc), `browser frame ${f.frameId}, page segment ${f.segment}`)], ...('conn' in f && f.conn ? ([['Connection', f.conn]] as Array<[string, string]>) : []), ...frameFacts(f)]} />
      {msgs.length ? (
        <p>
          Messages:{' '}
          {msgs.map((m, i) => (
            <Fragment key={m.index}>
              {i > 0 ? ', ' : null}
              {/* A batch's elements told apart by id and URI (two "resources/read" read as one word). */}
              <button type="button" class="link" onClick={() => open({ kind: 'message', index: m.index })}>
                {m.method ?? m.kind}
                {m.id !== undefined && m.id !== null ? ` id ${String(m.id)}` : ''}
                {m.uri !== undefined ? ` ${m.uri}` : ''}
              </button>
            </Fragment>
          ))}
        </p>
      ) : null}
      {body?.opaque ? (
        <p class="muted">Not text: {body.text}</p>
      ) : body && body.text === '' && f.kind === 'sse-event' ? (
        <p class="muted">No data (an event that carries only its id: a priming event, for resuming).</p>
      ) : body ? (
        <Raw text={body.text} label={body.truncated ? `Body (prefix; ${formatBytes(body.truncated.bytes)} in full)` : 'Body'} />
      ) : null}
      {f.kind !== 'http-request' && !body ? <Raw text={json} label="Frame" /> : null}
      {'conn' in f && f.conn ? <Exchange store={store} conn={f.conn} open={open} upTo={upTo} /> : null}
    </>
  );
}

/** What a frame's kind adds: an SSE event's id, name and retry; a WebSocket's direction, address and close. */
function frameFacts(f: Frame): Array<[string, string]> {
  switch (f.kind) {
    case 'sse-event':
      return [
        ['SSE id', f.id ?? '—'],
        ['SSE event', f.event ?? 'message'],
        ...(f.retry !== undefined ? ([['Retry', `${formatDuration(f.retry)} (the server's reconnect wait)`]] as Array<[string, string]>) : []),
      ];
    case 'ws-message':
      return [['Direction', f.dir === 'out' ? 'page → server (sent)' : 'server → page (received)']];
    case 'ws-connect':
      return [
        ['URL', f.url],
        ['Subprotocols asked', f.protocols.join(', ') || '—'],
      ];
    case 'ws-open':
      return [['Subprotocol', f.protocol || '—']];
    case 'ws-close':
      return [['Close', `${f.code}${f.reason ? ` ${f.reason}` : ''}${f.wasClean ? '' : ' (not clean)'}`]];
    default:
      return [];
  }
}

/**
 * A URI as a link to its own drawer: the row of the client the session belongs to (same page, same endpoint). Text
 * only when that row is not in the snapshot shown.
 */
function UriLink({ uri, rows, open }: { uri: string; rows: ReadonlyMap<string, string>; open: Props['open'] }) {
  const key = rows.get(uri);
  if (key === undefined) return <>{uri}</>;
  return (
    <button type="button" class="link uri-link" onClick={() => open({ kind: 'uri', key })} aria-label={`URI ${uri}`} title="Open this URI's details">
      {uri}
    </button>
  );
}

/** One URI a line, each a link (the cell keeps its line breaks: the facts' `white-space: pre-wrap`). */
function uriLines(lines: ReadonlyArray<ComponentChildren>): ComponentChildren {
  return lines.map((line, i) => (
    <Fragment key={i}>
      {i > 0 ? multiLine('\n') : null}
      {line}
    </Fragment>
  ));
}

function SessionDetail({ snapshot, skey, open }: { snapshot: EngineSnapshot; skey: string; open: Props['open'] }) {
  const s = snapshot.sessions.find((x) => x.key === skey);
  if (!s) return <p class="muted">This session is not in the current view.</p>;
  const caps = capabilitiesOf(snapshot.messages, s);
  // The session's client's rows by URI: what its URI links open.
  const rows = new Map<string, string>();
  for (const r of snapshot.uris) if (r.doc === s.doc && r.endpoint === s.endpoint) rows.set(r.uri, r.key);
  const link = (uri: string) => <UriLink uri={uri} rows={rows} open={open} />;
  return (
    <>
      <Title copy={s.label} copyName={s.kind === 'listen' ? 'Copy listen id' : 'Copy session id'}>
        {s.kind === 'listen' ? 'Listen stream' : 'Session'} {sessionLabel(s, sessionIdNamer(snapshot.sessions))}
      </Title>
      <Facts
        rows={[
          ['Endpoint', s.endpoint],
          ['Page', pageFact(snapshot.clients, s.doc, sessionClientTags(snapshot).get(clientKeyOf(s)))],
          // A WebSocket is named by its number (no session id): the engine's id for it, as the views' tooltips say it.
          ...(s.transport === 'websocket' && s.kind === 'session' ? ([['Connection', s.label]] as Array<[string, string]>) : []),
          ['Transport', `${s.transport} (${s.generation})`],
          ['Protocol version', s.notInitialized ? `— (not initialized: ${NOT_INITIALIZED})` : versionText(s, true)],
          ['Capabilities', caps ? caps.join(', ') || '(none)' : '—'],
          [
            'Started',
            `${formatClock(s.startT)}${s.resumedFrom !== undefined ? ` (resumes ${s.resumedFrom}: no initialize, the page reused the stored session id)` : s.observedFromStart ? '' : ' (picked up mid-way)'}`,
          ],
          ['Ended', s.open ? 'open' : `${formatClock(s.endT ?? s.startT)} — ${s.endCause ?? 'unknown'}`],
          ['Delivery channel open', s.deliveryChannelOpen ? 'yes' : 'no'],
          ['Streams', multiLine(sessionStreamsDetail(snapshot, s))],
          // An ended session holds nothing any more: what it held is history, and said so.
          // Each URI opens its own drawer (← Back returns here).
          [s.open ? 'Subscriptions held' : 'Subscriptions held when it ended', s.subscriptions.length ? uriLines(s.subscriptions.map(link)) : '(none)'],
          // Sub-resources the server notified under a held parent: held through it, not subscriptions of their own.
          ...(s.coveredViaParent?.length
            ? ([
                [
                  'Sub-resources',
                  uriLines(
                    s.coveredViaParent.map(([child, parent]) => (
                      <>
                        {link(child)} (covered via {link(parent)})
                      </>
                    )),
                  ),
                ],
              ] as Array<[string, ComponentChildren]>)
            : []),
          ...(s.kind === 'listen'
            ? ([
                ['Requested in listen', s.requested ? (s.requested.length ? uriLines(s.requested.map(link)) : '(none)') : 'no resource subscriptions (other notifications only, e.g. list changes)'],
              ] as Array<[string, ComponentChildren]>)
            : []),
        ]}
      />
    </>
  );
}

const BACK_NAMES: Record<DrawerTarget['kind'], string> = { uri: 'URI', finding: 'finding', frame: 'frame', message: 'message', session: 'session' };

export function DetailDrawer({ store, target, snapshot, onClose, open }: Props) {
  const ref = useRef<HTMLElement>(null);
  const shown = useRef(false);
  useEffect(() => {
    // The drawer takes the focus when it opens, and when what it showed changed under the focus (an evidence link
    // replaced by the frame it opens). Not when the selection moved in a list with the drawer open: the arrow keys
    // must keep walking the list, the drawer following.
    const el = ref.current;
    const active = document.activeElement;
    const opening = !shown.current;
    shown.current = true;
    // Shown again with its view (the view tab keeps the focus, ← → walk on), not opened now.
    if (opening && store.restoredDrawer === target) return;
    if (opening || active === null || active === document.body || (el?.contains(active) ?? false)) {
      // Moved inside the drawer (a link, Back): on Back when there is one, so Enter walks back again.
      const to = (!opening && el?.querySelector<HTMLElement>('.drawer-back')) || el?.querySelector<HTMLElement>('.drawer-close');
      to?.focus({ preventScroll: true });
    }
  }, [target]);
  // Back: to what the drawer showed before its own link replaced it (evidence → frame → message …).
  void store.drawerHistory.value;
  const back = store.drawerBackTarget();
  let body: ComponentChildren;
  switch (target.kind) {
    case 'uri': {
      const row = snapshot.uris.find((r) => r.key === target.key);
      body = row ? <UriDetail store={store} row={row} snapshot={snapshot} open={open} /> : <p class="muted">This URI is not in the current view.</p>;
      break;
    }
    case 'finding': {
      const f = snapshot.findings.find((x) => x.key === target.key);
      body = f ? (
        <>
          <h3 class="drawer-title">{f.uri ?? (f.session !== undefined ? sessionIdNamer(snapshot.sessions)(f.session) : f.id)}</h3>
          <FindingBlock store={store} snapshot={snapshot} f={f} open={open} />
        </>
      ) : (
        <p class="muted">This finding is not in the current view.</p>
      );
      break;
    }
    case 'message': {
      const m = store.engineNow().message(target.index);
      body = m ? <MessageDetail store={store} m={m} open={open} upTo={snapshot.lastSeq} now={snapshot.now} name={sessionIdNamer(snapshot.sessions)} /> : <p class="muted">No such message.</p>;
      break;
    }
    case 'frame': {
      const f = store.frameBySeq(target.seq);
      body = f ? <FrameDetail store={store} f={f} open={open} upTo={Math.max(snapshot.lastSeq, f.seq)} snapshot={snapshot} /> : <p class="muted">Frame #{target.seq} is not in the current view.</p>;
      break;
    }
    case 'session':
      body = <SessionDetail snapshot={snapshot} skey={target.key} open={open} />;
      break;
  }
  return (
    <aside class={`drawer${back ? ' has-back' : ''}`} ref={ref} aria-label="Details" data-drawer={target.kind}>
      {back ? (
        <button type="button" class="drawer-back" aria-label={`Back to the ${BACK_NAMES[back.kind]}`} title={`Back to the ${BACK_NAMES[back.kind]}`} onClick={() => store.drawerBack()}>
          ← Back
        </button>
      ) : null}
      <button type="button" class="drawer-close" aria-label="Close details" title="Close (Esc)" onClick={onClose}>
        ✕
      </button>
      <div class="drawer-body">{body}</div>
    </aside>
  );
}
