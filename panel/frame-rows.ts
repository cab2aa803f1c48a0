// First-version list rows: one row per JSON-RPC message or transport event, with the context a developer scans for
// (direction, transport, session, method, id, error, URI). Incremental: keeps per-connection context as frames arrive.
import type { Frame, Payload } from '../shared/frames.ts';

export interface FrameRow {
  seq: number;
  t: number;
  dir: 'out' | 'in' | '';
  transport: string;
  session: string;
  method: string;
  id: string;
  error: string;
  uri: string;
  /** Transport-level text when the row is not a JSON-RPC message. */
  note: string;
  frameId: number;
  segment: number;
}

interface ConnContext {
  transport: string;
  session: string;
}

function sessionFromUrl(url: string): string {
  const m = /[?&]sessionId=([^&]+)/.exec(url);
  return m ? decodeURIComponent(m[1]!) : '';
}

function describe(v: unknown): Pick<FrameRow, 'method' | 'id' | 'error' | 'uri'> {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const params = (o.params ?? {}) as Record<string, unknown>;
  const result = (o.result ?? {}) as Record<string, unknown>;
  const contents = Array.isArray(result.contents) ? (result.contents[0] as Record<string, unknown> | undefined) : undefined;
  const err = o.error as { code?: unknown; message?: unknown } | undefined;
  return {
    method: typeof o.method === 'string' ? o.method : 'result' in o ? '(result)' : err ? '(error)' : '',
    id: o.id === undefined || o.id === null ? '' : String(o.id),
    error: err ? `${String(err.code)} ${String(err.message ?? '')}` : '',
    uri: typeof params.uri === 'string' ? params.uri : typeof contents?.uri === 'string' ? contents.uri : '',
  };
}

function messagesOf(p: Payload): Array<Pick<FrameRow, 'method' | 'id' | 'error' | 'uri' | 'note'>> {
  if (p.opaque) return [{ method: '', id: '', error: '', uri: '', note: p.text }];
  if (p.truncated) return [{ method: '', id: '', error: '', uri: '', note: `truncated body (${p.truncated.bytes} bytes)` }];
  // An empty body (a 202 to a notification, a 405) is not malformed JSON-RPC.
  if (p.text.trim() === '') return [{ method: '', id: '', error: '', uri: '', note: '(empty body)' }];
  let v: unknown;
  try {
    v = JSON.parse(p.text);
  } catch {
    return [{ method: '', id: '', error: 'not JSON', uri: '', note: p.text.slice(0, 80) }];
  }
  const list = Array.isArray(v) ? v : [v];
  return list.map((m) => ({ ...describe(m), note: '' }));
}

export class FrameRows {
  readonly rows: FrameRow[] = [];
  private readonly conns = new Map<string, ConnContext>();

  add(frame: Frame): void {
    const base = { seq: frame.seq, t: frame.t, frameId: frame.frameId, segment: frame.segment };
    const blank = { dir: '' as const, method: '', id: '', error: '', uri: '', note: '' };
    const ctx = 'conn' in frame && frame.conn ? this.conns.get(frame.conn) : undefined;
    const where = { transport: ctx?.transport ?? '', session: ctx?.session ?? '' };
    const push = (r: Partial<FrameRow>): void => {
      this.rows.push({ ...base, ...blank, ...where, ...r });
    };

    switch (frame.kind) {
      case 'page-start':
        return push({ note: `${frame.top ? 'page' : 'frame'} ${frame.url}` });
      case 'page-end':
        return push({ note: `unload ${frame.url}` });
      case 'http-request': {
        const c = { transport: `HTTP ${frame.method}`, session: frame.headers['mcp-session-id'] ?? sessionFromUrl(frame.url) };
        this.conns.set(frame.conn, c);
        if (!frame.body) return push({ ...c, dir: 'out', note: frame.url });
        for (const m of messagesOf(frame.body)) push({ ...c, dir: 'out', ...m });
        return;
      }
      case 'http-response': {
        const session = frame.headers['mcp-session-id'];
        if (ctx && session) ctx.session = session;
        return push({ dir: 'in', session: ctx?.session ?? '', note: `HTTP ${frame.status} ${frame.headers['content-type'] ?? ''}` });
      }
      case 'http-body':
        for (const m of messagesOf(frame.body)) push({ dir: 'in', ...m });
        return;
      case 'sse-event':
        if (frame.event === 'endpoint') {
          if (ctx) ctx.session = sessionFromUrl(frame.data.text);
          return push({ dir: 'in', session: ctx?.session ?? '', note: `endpoint ${frame.data.text}` });
        }
        if (frame.data.text === '') return push({ dir: 'in', note: `SSE event id=${frame.id ?? ''} (no data)` });
        for (const m of messagesOf(frame.data)) push({ dir: 'in', ...m });
        return;
      case 'sse-comment':
        return push({ dir: 'in', note: `: ${frame.text}` });
      case 'http-end':
        return push({ note: `end ${frame.outcome}${frame.error ? ` (${frame.error.name}: ${frame.error.message})` : ''}` });
      case 'es-connect':
        this.conns.set(frame.conn, { transport: 'EventSource', session: sessionFromUrl(frame.url) });
        return push({ transport: 'EventSource', dir: 'out', note: frame.url });
      case 'es-open':
        return push({ note: 'open' });
      case 'es-error':
        return push({ note: frame.readyState === 2 ? 'closed by error' : 'error, reconnecting' });
      case 'es-close':
        return push({ note: 'closed by page' });
      case 'ws-connect':
        this.conns.set(frame.conn, { transport: 'WebSocket', session: frame.conn });
        return push({ transport: 'WebSocket', session: frame.conn, dir: 'out', note: frame.url });
      case 'ws-open':
        return push({ note: `open ${frame.protocol}` });
      case 'ws-message':
        for (const m of messagesOf(frame.data)) push({ dir: frame.dir, ...m });
        return;
      case 'ws-close':
        return push({ note: `close ${frame.code} ${frame.reason}` });
      case 'ws-error':
        return push({ note: 'error' });
      case 'capture-error':
        return push({ error: 'capture error', note: `${frame.where}: ${frame.message}` });
    }
  }
}

/** A row's key in the Messages list, `seq.k`: the k-th row of its frame (a JSON-RPC batch is one frame, adjacent rows). */
export function rowKey(rows: readonly Pick<FrameRow, 'seq'>[], i: number): string {
  const seq = rows[i]!.seq;
  let k = 0;
  while (i - k - 1 >= 0 && rows[i - k - 1]!.seq === seq) k++;
  return `${seq}.${k}`;
}

/** The index of the row with key `seq.k` in rows sorted by seq (binary search), or -1. */
export function rowIndexOf(rows: readonly Pick<FrameRow, 'seq'>[], key: string): number {
  const dot = key.indexOf('.');
  const seq = Number(key.slice(0, dot));
  const k = Number(key.slice(dot + 1));
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  const i = lo + k;
  return i < rows.length && rows[i]!.seq === seq ? i : -1;
}
