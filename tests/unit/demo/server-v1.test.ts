// The knowledge-base server on SDK v1 over real loopback HTTP with real SDK clients: subscriptions per session,
// notifications only to subscribers, the seed's counters, restart → 404, and every fault switch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKbServer, type KbServer } from '../../../demo/server/http.ts';
import { admin, connectV1, eventually, POLICY, sleep, type TestClient } from './helpers.ts';

let kb: KbServer;
const clients: TestClient[] = [];
const connect = async (kind: 'streamable-http' | 'sse' = 'streamable-http') => {
  const c = await connectV1(kind === 'sse' ? kb.endpoints.sse : kb.endpoints.streamableHttp, kind);
  clients.push(c);
  return c;
};

beforeEach(async () => {
  kb = await createKbServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await kb.close();
});

describe('resources', () => {
  it('lists the documents, the listing, the schema and the articles with annotations.lastModified', async () => {
    const c = await connect();
    const { resources } = await c.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([POLICY, 'file:///docs/', 'postgres://kb/articles/schema', 'postgres://kb/articles/101']));
    for (const r of resources) expect(Date.parse(r.annotations?.lastModified ?? '')).not.toBeNaN();
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['postgres://kb/articles/{id}']);
    expect(c.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
  });

  it('the listing names the documents and does not change when a body is edited', async () => {
    const c = await connect();
    const before = (await c.client.readResource({ uri: 'file:///docs/' })).contents[0];
    expect(before && 'text' in before ? JSON.parse(before.text) : []).toContainEqual(expect.objectContaining({ uri: POLICY }));
    await admin(kb.url, 'edit', { uri: POLICY });
    const after = (await c.client.readResource({ uri: 'file:///docs/' })).contents[0];
    expect(after).toEqual(before);
  });

  it('edits bump the revision and lastModified in resources/list', async () => {
    const c = await connect();
    const lm = async () => (await c.client.listResources()).resources.find((r) => r.uri === POLICY)?.annotations?.lastModified;
    const first = await lm();
    await sleep(5);
    const r = await admin(kb.url, 'edit', { uri: POLICY });
    expect(r.json.revision).toBe(2);
    expect(await lm()).not.toBe(first);
  });

  it('unknown resources are a JSON-RPC error', async () => {
    const c = await connect();
    await expect(c.client.readResource({ uri: 'postgres://kb/articles/999' })).rejects.toThrow(/not found/i);
  });
});

describe('subscriptions and notifications', () => {
  it('subscribe → edit → notifications/resources/updated arrives, only for subscribed sessions', async () => {
    const a = await connect();
    const b = await connect();
    await a.client.subscribeResource({ uri: POLICY });
    await eventually(() => kb.state().sessions.every((s) => s.channelOpen), 3000, 'GET streams');
    await admin(kb.url, 'edit', { uri: POLICY });
    await eventually(() => a.updates.includes(POLICY), 3000, 'the notification');
    await sleep(100);
    expect(b.updates).toEqual([]);
    const state = kb.state();
    expect(state.sessions.find((s) => s.id === (a.transport as { sessionId?: string }).sessionId)?.subscriptions).toEqual([POLICY]);
    expect(state.metrics.updatesSent).toBe(1);
    expect(state.metrics.droppedNoSubscriber).toBe(0);
  });

  it('counts updates nobody subscribed to', async () => {
    await connect();
    await admin(kb.url, 'edit', { uri: POLICY });
    await admin(kb.url, 'edit', { uri: 'postgres://kb/articles/101' });
    expect(kb.state().metrics).toMatchObject({ edits: 2, droppedNoSubscriber: 2, updatesSent: 0 });
  });

  it('a subscription to the listing does not cover its documents', async () => {
    const c = await connect();
    await c.client.subscribeResource({ uri: 'file:///docs/' });
    await admin(kb.url, 'edit', { uri: POLICY });
    await sleep(150);
    expect(c.updates).toEqual([]);
    expect(kb.state().metrics.droppedNoSubscriber).toBe(1);
  });

  it('legacy HTTP+SSE sessions get their notifications on the SSE stream', async () => {
    const c = await connect('sse');
    await c.client.subscribeResource({ uri: POLICY });
    await admin(kb.url, 'edit', { uri: POLICY });
    await eventually(() => c.updates.includes(POLICY), 3000, 'the SSE notification');
    expect(kb.state().sessions[0]).toMatchObject({ transport: 'sse', channelOpen: true, subscriptions: [POLICY] });
  });

  it('DELETE ends the session and its subscriptions', async () => {
    const c = await connect();
    await c.client.subscribeResource({ uri: POLICY });
    await (c.transport as { terminateSession(): Promise<void> }).terminateSession();
    expect(kb.state().sessions).toEqual([]);
  });
});

describe('restart', () => {
  it('drops every session: later requests with the old id get 404 and a new initialize works', async () => {
    const c = await connect();
    await c.client.subscribeResource({ uri: POLICY });
    const r = await admin(kb.url, 'restart', {});
    expect(r.json).toEqual({ dropped: { sessions: 1, listens: 0 } });
    expect(kb.state().sessions).toEqual([]);
    await expect(c.client.readResource({ uri: POLICY })).rejects.toMatchObject({ code: 404 });
    const fresh = await connect();
    await expect(fresh.client.readResource({ uri: POLICY })).resolves.toBeTruthy();
  });

  it('requests without a session id (other than initialize) get 400', async () => {
    const res = await fetch(kb.endpoints.streamableHttp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list' }),
    });
    expect(res.status).toBe(400);
  });
});

describe('faults', () => {
  it('dropNotifications: edits are counted, nothing is sent', async () => {
    const c = await connect();
    await c.client.subscribeResource({ uri: POLICY });
    await admin(kb.url, 'faults', { dropNotifications: true });
    await admin(kb.url, 'edit', { uri: POLICY });
    await sleep(150);
    expect(c.updates).toEqual([]);
    expect(kb.state().metrics).toMatchObject({ droppedByFault: 1, updatesSent: 0 });
  });

  it('refuseGetStream: GET /mcp answers 405, the SDK carries on, notifications have no channel', async () => {
    await admin(kb.url, 'faults', { refuseGetStream: true });
    const c = await connect();
    await c.client.subscribeResource({ uri: POLICY });
    await admin(kb.url, 'edit', { uri: POLICY });
    await sleep(150);
    expect(c.updates).toEqual([]);
    expect(kb.state().sessions[0]?.channelOpen).toBe(false);
    expect(kb.state().metrics.lostNoChannel).toBe(1);
    const sid = (c.transport as { sessionId?: string }).sessionId ?? '';
    const res = await fetch(kb.endpoints.streamableHttp, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
    expect(res.status).toBe(405);
  });

  it('noSubscribeCapability: new sessions advertise no subscribe and resources/subscribe is -32601', async () => {
    await admin(kb.url, 'faults', { noSubscribeCapability: true });
    const c = await connect();
    expect(c.client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
    await expect(c.client.subscribeResource({ uri: POLICY })).rejects.toMatchObject({ code: -32601 });
  });

  it('outOfOrderReads: of two concurrent reads the first (older snapshot) answers last', async () => {
    const c = await connect();
    await admin(kb.url, 'faults', { outOfOrderReads: true });
    const order: number[] = [];
    const first = c.client.readResource({ uri: POLICY }).then((r) => (order.push(1), r));
    await sleep(30);
    await admin(kb.url, 'edit', { uri: POLICY });
    const second = c.client.readResource({ uri: POLICY }).then((r) => (order.push(2), r));
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual([2, 1]);
    const text = (r: typeof a) => (r.contents[0] && 'text' in r.contents[0] ? r.contents[0].text : '');
    expect(text(a)).not.toContain('Revision 2');
    expect(text(b)).toContain('Revision 2');
  });

  it('slowReadsMs delays every read', async () => {
    const c = await connect();
    await admin(kb.url, 'faults', { slowReadsMs: 250 });
    const t = Date.now();
    await c.client.readResource({ uri: POLICY });
    expect(Date.now() - t).toBeGreaterThanOrEqual(240);
  });

  it('slowSubscribesMs delays every subscribe, and the server holds it only once answered', async () => {
    const c = await connect();
    await admin(kb.url, 'faults', { slowSubscribesMs: 300 });
    const t = Date.now();
    const answered = c.client.subscribeResource({ uri: POLICY });
    await new Promise((r) => setTimeout(r, 100));
    expect(kb.state().sessions[0]?.subscriptions).toEqual([]);
    await answered;
    expect(Date.now() - t).toBeGreaterThanOrEqual(290);
    expect(kb.state().sessions[0]?.subscriptions).toEqual([POLICY]);
  });

  it('notifyUnsubscribed: every session hears about every edit', async () => {
    const c = await connect();
    await eventually(() => kb.state().sessions[0]?.channelOpen === true, 3000, 'GET stream');
    await admin(kb.url, 'faults', { notifyUnsubscribed: true });
    await admin(kb.url, 'edit', { uri: POLICY });
    await eventually(() => c.updates.includes(POLICY), 3000, 'the unsolicited notification');
    expect(kb.state().metrics.unsolicitedSent).toBe(1);
  });

  it('downgradeProtocol: new sessions negotiate the older version', async () => {
    await admin(kb.url, 'faults', { downgradeProtocol: '2025-03-26' });
    const c = await connect();
    expect((c.transport as { protocolVersion?: string }).protocolVersion).toBe('2025-03-26');
    expect(kb.state().sessions[0]?.protocolVersion).toBe('2025-03-26');
  });

  it('drop-streams closes the GET stream but keeps the session; the SDK reconnects it', async () => {
    const c = await connect();
    await eventually(() => kb.state().sessions[0]?.channelOpen === true, 3000, 'GET stream');
    const r = await admin(kb.url, 'drop-streams', {});
    expect(r.json).toEqual({ closed: { getStreams: 1, listens: 0 } });
    expect(kb.state().sessions).toHaveLength(1);
    await eventually(() => kb.state().sessions[0]?.channelOpen === false, 1000, 'stream closed');
    await eventually(() => kb.state().sessions[0]?.channelOpen === true, 4000, 'stream reconnected');
    expect(c.updates).toEqual([]);
  });
});
