// The admin endpoint's contract (clear 400s, nothing changes on bad input) and the HTTP edges: CORS for the page's
// origin with the MCP headers exposed, loopback-only Host, JSON parse errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAULTS } from '../../../demo/server/faults.ts';
import { createKbServer, type KbServer } from '../../../demo/server/http.ts';
import { admin, POLICY } from './helpers.ts';

let kb: KbServer;
beforeEach(async () => {
  kb = await createKbServer();
});
afterEach(async () => {
  await kb.close();
});

describe('admin endpoint', () => {
  it('GET /admin/state describes faults, sessions, documents and counters', async () => {
    const { status, json } = await admin(kb.url, 'state');
    expect(status).toBe(200);
    expect(json).toMatchObject({ faults: DEFAULT_FAULTS, editTimerMs: 0, sessions: [], listens: [] });
    expect(json.documents).toContainEqual(expect.objectContaining({ uri: POLICY, revision: 1 }));
  });

  it.each([
    ['faults', { dropNotifications: 'yes' }, /dropNotifications/],
    ['faults', { bogus: true }, /unknown field\(s\) 'bogus'/],
    ['faults', { slowReadsMs: -5 }, /slowReadsMs/],
    ['faults', { downgradeProtocol: '1999-01-01' }, /downgradeProtocol/],
    ['faults', [true], /expected a JSON object/],
    ['edit', {}, /uri/],
    ['edit', { uri: 'file:///docs/nope.md' }, /not an editable resource/],
    ['edit', { uri: 'file:///docs/' }, /not an editable resource/],
    ['edit', { uri: POLICY, times: 99 }, /times/],
    ['timer', { intervalMs: 'often' }, /intervalMs/],
    ['restart', { now: true }, /takes no parameters/],
  ])('POST /admin/%s %j → 400 with a clear error, nothing changes', async (path, body, message) => {
    const before = kb.state();
    const { status, json } = await admin(kb.url, path, body);
    expect(status).toBe(400);
    expect(String(json.error)).toMatch(message);
    const after = kb.state();
    expect({ ...after, metrics: undefined }).toEqual({ ...before, metrics: undefined });
  });

  it('invalid JSON → 400 naming the problem', async () => {
    const { status, json } = await admin(kb.url, 'faults', '{"dropNotifications":');
    expect(status).toBe(400);
    expect(String(json.error)).toMatch(/not valid JSON/);
  });

  it('unknown endpoints → 404 listing the endpoints; wrong method → 405', async () => {
    const missing = await admin(kb.url, 'nope', {});
    expect(missing.status).toBe(404);
    expect(missing.json.endpoints).toContain('POST /admin/faults');
    const wrong = await fetch(`${kb.url}/admin/faults`);
    expect(wrong.status).toBe(405);
  });

  it('a valid patch changes only the named switches; edit, timer and reset work', async () => {
    const r = await admin(kb.url, 'faults', { outOfOrderReads: true, slowReadsMs: 10 });
    expect(r.json.faults).toEqual({ ...DEFAULT_FAULTS, outOfOrderReads: true, slowReadsMs: 10 });
    expect((await admin(kb.url, 'edit', { uri: POLICY, times: 2 })).json).toMatchObject({ revision: 3 });
    expect((await admin(kb.url, 'timer', { intervalMs: 60_000 })).status).toBe(200);
    expect(kb.state().editTimerMs).toBe(60_000);
    expect((await admin(kb.url, 'reset', {})).status).toBe(200);
    expect(kb.state()).toMatchObject({ faults: DEFAULT_FAULTS, documents: expect.arrayContaining([expect.objectContaining({ uri: POLICY, revision: 1 })]) });
  });
});

describe('HTTP edges', () => {
  const origin = 'http://127.0.0.1:9';

  it('answers preflights for loopback origins with the MCP headers allowed', async () => {
    const res = await fetch(kb.endpoints.streamableHttp, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-session-id,mcp-protocol-version' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/mcp-session-id/);
  });

  it('exposes mcp-session-id and mcp-protocol-version on MCP responses', async () => {
    const res = await fetch(kb.endpoints.streamableHttp, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id.*mcp-protocol-version/);
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.body?.cancel();
  });

  it('no CORS for foreign origins; non-loopback Host → 403', async () => {
    const res = await fetch(`${kb.url}/admin/state`, { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${kb.url}/admin/state`, { headers: { host: 'evil.example' } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('a POST that is not JSON gets a JSON-RPC parse error', async () => {
    const res = await fetch(kb.endpoints.streamableHttp, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('close() releases the port', async () => {
    const { port } = kb;
    await kb.close();
    const { createServer } = await import('node:net');
    await new Promise<void>((resolve, reject) => {
      const s = createServer().once('error', reject).listen(port, '127.0.0.1', () => s.close(() => resolve()));
    });
    kb = await createKbServer();
  });
});
