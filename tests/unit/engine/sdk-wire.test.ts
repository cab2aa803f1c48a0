// What the real SDK puts on the wire, recorded in Node by a fetch wrapper that emits hook-shaped frames, decoded and
// analyzed by the engine. Pins down the 2026-07-28 behaviour the scripted clients imitate (observed in
// @modelcontextprotocol/client|server 2.4): the listen id is a string `listen:N`; the acknowledgement is the stream's
// first event and carries `_meta["io.modelcontextprotocol/subscriptionId"]`; every notification carries it too;
// read results carry ttlMs and cacheScope; closing a subscription aborts the stream *and* sends
// notifications/cancelled for the listen id. And the v1 SDK's Streamable HTTP session, notified on its GET stream.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decoder, type DecodedMessage } from '../../../shared/decode/index.ts';
import { decodedJson } from '../../../shared/decode/decoded-json.ts';
import { Engine } from '../../../shared/engine/index.ts';
import { brief } from '../../support/analyze.ts';
import { FrameRecorder } from '../../support/recording-fetch.ts';
import { startV1Server, type V1Server } from '../../support/v1-server.ts';
import { startV2Server, type V2Server } from '../../support/v2-server.ts';

const POLICY = 'file:///docs/policy.md';
const until = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

function decodeAll(frames: Parameters<Engine['applyAll']>[0]): DecodedMessage[] {
  const out: DecodedMessage[] = [];
  const d = new Decoder({ message: (m) => out.push(m), wire: () => undefined });
  for (const f of frames) d.push(f);
  return out;
}

describe('SDK v2 (2026-07-28) on the wire', () => {
  let server: V2Server;
  beforeAll(async () => {
    server = await startV2Server();
  });
  afterAll(async () => {
    await server.close();
  });

  it('discover, read, listen, update, re-read, close: decoded as observed and judged healthy', async () => {
    const rec = new FrameRecorder();
    const client = new ClientV2({ name: 'wire-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    let updates = 0;
    client.setNotificationHandler('notifications/resources/updated', () => void updates++);
    await client.connect(new TransportV2(new URL(`${server.url}/mcp`), { fetch: rec.fetch }));
    await client.readResource({ uri: POLICY }, { cacheMode: 'bypass' });
    const sub = await client.listen({ resourceSubscriptions: [POLICY] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [POLICY] });
    server.edit(POLICY);
    await until(() => updates === 1);
    await client.readResource({ uri: POLICY }, { cacheMode: 'bypass' });
    await rec.settle();
    const beforeClose = rec.frames.length;
    await sub.close();
    await client.close();
    await rec.settle();

    const msgs = decodeAll(rec.frames);
    expect(msgs.every((m) => m.generation === '2026' && m.session === undefined)).toBe(true);
    expect(msgs.filter((m) => m.problem !== undefined)).toEqual([]);
    const listen = msgs.find((m) => m.method === 'subscriptions/listen' && m.kind === 'request')!;
    expect(listen.id).toMatch(/^listen:\d+$/);
    const onListen = msgs.filter((m) => m.streamKind === 'listen');
    expect(onListen[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    for (const m of onListen) {
      expect((decodedJson(m) as { params: { _meta: Record<string, unknown> } }).params._meta['io.modelcontextprotocol/subscriptionId']).toBe(listen.id);
    }
    const read = msgs.find((m) => m.kind === 'result' && m.method === 'resources/read')!;
    expect(decodedJson(read)).toMatchObject({ result: { ttlMs: 30_000, cacheScope: expect.any(String), resultType: 'complete' } });
    const cancelled = msgs.find((m) => m.method === 'notifications/cancelled')!;
    expect((decodedJson(cancelled) as { params: { requestId: string } }).params.requestId).toBe(listen.id);

    const e = Engine.replay(rec.frames);
    expect(e.engineErrors).toBe(0);
    // While listening: healthy. (Evaluated before the page closed its subscription.)
    const open = Engine.replay(rec.frames.slice(0, beforeClose));
    expect(brief(open.findings(open.lastT! + 1000))).toEqual([]);
    const row = open.snapshot(open.lastT! + 1000).uris.find((u) => u.uri === POLICY)!;
    expect(row).toMatchObject({ cached: true, serverHasSubscription: true, deliveryChannelOpen: true, ttlMs: 30_000, expectedMaxAgeSource: 'ttl' });
    // After the page closed it but kept the cache: unsubscribed (a warning, as designed).
    expect(brief(e.findings(e.lastT! + 3000))).toEqual([`cached-not-subscribed ${POLICY} unsubscribed warning`]);
    expect(e.snapshot(e.lastT!).sessions.find((s) => s.kind === 'listen')).toMatchObject({ open: false, endCause: 'client-close' });
  });

  it('a client with ClientOptions.listChanged, reconnected after a server restart, that never listens for its resources again: still an error', async () => {
    let restarted: V2Server | undefined;
    const first = await startV2Server();
    const rec = new FrameRecorder();
    // connect() opens a list-changed listen by itself ({resourcesListChanged: true}, no URIs), and again on reconnect.
    const client = new ClientV2({ name: 'wire-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, listChanged: { resources: { onChanged: () => undefined } } } as never);
    try {
      await client.connect(new TransportV2(new URL(`${first.url}/mcp`), { fetch: rec.fetch }));
      await client.readResource({ uri: POLICY }, { cacheMode: 'bypass' });
      await client.listen({ resourceSubscriptions: [POLICY] });
      await first.close();
      await rec.settle();
      restarted = await startV2Server({ port: first.port });
      await client.connect(new TransportV2(new URL(`${restarted.url}/mcp`), { fetch: rec.fetch }));
      await rec.settle();
    } finally {
      await client.close().catch(() => undefined);
      await restarted?.close();
    }
    const e = Engine.replay(rec.frames);
    const now = e.lastT! + 3000;
    const listens = e.snapshot(now).sessions.filter((s) => s.kind === 'listen');
    // The SDK's own listens ask for no URI; the app's one listen asked for the policy.
    expect(listens.map((l) => l.requested ?? 'no resources')).toEqual(['no resources', [POLICY], 'no resources']);
    expect(brief(e.findings(now))).toEqual([`cached-not-subscribed ${POLICY} lost-with-stream error`, `phantom-subscription ${POLICY} - error`]);
    expect(e.snapshot(now).metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 0 });
  });
});

describe('SDK v1 (Streamable HTTP, sessions) on the wire', () => {
  let server: V1Server;
  beforeAll(async () => {
    server = await startV1Server();
  });
  afterAll(async () => {
    await server.close();
  });

  it('initialize, GET stream, read, subscribe, update on the GET stream, re-read: healthy', async () => {
    const rec = new FrameRecorder();
    const client = new ClientV1({ name: 'wire-test', version: '1.0.0' });
    let updates = 0;
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void updates++);
    const transport = new TransportV1(new URL(`${server.url}/mcp`), { fetch: rec.fetch });
    await client.connect(transport);
    await client.readResource({ uri: POLICY });
    await client.subscribeResource({ uri: POLICY });
    await until(() => rec.frames.some((f) => f.kind === 'http-response' && rec.frames.some((g) => g.kind === 'http-request' && g.conn === f.conn && g.method === 'GET')));
    await server.edit(POLICY);
    await until(() => updates === 1);
    await client.readResource({ uri: POLICY });
    await rec.settle();
    const e = Engine.replay(rec.frames);
    await client.close();
    expect(e.engineErrors).toBe(0);
    const msgs = decodeAll(rec.frames);
    const upd = msgs.find((m) => m.method === 'notifications/resources/updated')!;
    expect(upd).toMatchObject({ streamKind: 'get', uri: POLICY, generation: '2025' });
    expect(upd.session).toBe(transport.sessionId);
    expect(brief(e.findings(e.lastT! + 1000))).toEqual([]);
    expect(e.snapshot(e.lastT! + 1000).uris.find((u) => u.uri === POLICY)).toMatchObject({ serverHasSubscription: true, deliveryChannelOpen: true });
  });
});
