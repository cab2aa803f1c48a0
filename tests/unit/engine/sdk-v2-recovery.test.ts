// Healthy recoveries on real 2026-07-28 traffic: SDK v2 clients (@modelcontextprotocol/client) against the SDK v2 test
// server (@modelcontextprotocol/server, createMcpHandler) with faults switched on — a listen socket reset, a graceful
// end of every listen — recorded in Node by the fetch wrapper that emits hook-shaped frames. Each healthy recovery
// must say nothing; each has a near miss that must be reported.
//
// What the SDK v2 client does by itself (observed in 2.4, and what these clients work with): listen() never re-listens
// (`closed` says 'remote' for a drop, 'graceful' for the end response); readResource() serves a fresh entry of its own
// response cache (the server's ttlMs) without a request, and an updated notification evicts that URI's entry — so a
// re-read after a notification reaches the server, but a catch-up read after a re-listen needs cacheMode 'refresh'.
import { Client, StreamableHTTPClientTransport, type McpSubscription } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import type { Frame } from '../../../shared/frames.ts';
import { brief } from '../../support/analyze.ts';
import { FrameRecorder } from '../../support/recording-fetch.ts';
import { startV2Server, type V2Server, type V2ServerOptions } from '../../support/v2-server.ts';
import { sleep, until } from '../../support/until.ts';

const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';

let server: V2Server | undefined;
let clients: Client[] = [];
afterEach(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  clients = [];
  await server?.close();
  server = undefined;
});

interface V2Client {
  c: Client;
  /** Updates received, by URI in arrival order. */
  updates: string[];
  /** Wire reads of `uri` (the SDK's cache answers the rest). */
  reads(uri: string): number;
}

/** An SDK v2 client pinned to 2026-07-28 whose handler re-reads each update through `reread`; reads `uris` first. */
async function client(rec: FrameRecorder, uris: string[], reread: (c: Client, uri: string) => Promise<void> = async (c, uri) => void (await c.readResource({ uri }))): Promise<V2Client> {
  const c = new Client({ name: 'recovery-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  clients.push(c);
  const updates: string[] = [];
  c.setNotificationHandler('notifications/resources/updated', async (n) => {
    updates.push(n.params.uri);
    await reread(c, n.params.uri);
  });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`), { fetch: rec.fetch }));
  for (const uri of uris) await c.readResource({ uri });
  return { c, updates, reads: (uri) => readsOf(rec.frames, uri) };
}

function bodyOf(f: Frame): { method?: string; params?: { uri?: string } } | undefined {
  if (f.kind !== 'http-request' || f.body === undefined) return undefined;
  try {
    return JSON.parse(f.body.text) as { method?: string; params?: { uri?: string } };
  } catch {
    return undefined;
  }
}
function readsOf(frames: readonly Frame[], uri: string): number {
  return frames.filter((f) => {
    const b = bodyOf(f);
    return b?.method === 'resources/read' && b.params?.uri === uri;
  }).length;
}

/** Warnings and errors `after` ms past the last frame, judged with the client still connected. */
async function judged(rec: FrameRecorder, after = 3000): Promise<string[]> {
  await rec.settle();
  const e = Engine.replay(rec.frames.slice());
  expect(e.engineErrors).toBe(0);
  return brief(e.findings(e.lastT! + after));
}

async function start(opts: V2ServerOptions = {}): Promise<FrameRecorder> {
  server = await startV2Server(opts);
  return new FrameRecorder();
}

describe('SDK v2: the listen stream is dropped (socket reset) and the client listens again', () => {
  /**
   * Listening to both documents; a first update is re-read; then the listen socket is reset, the FAQ changes while no
   * stream is open (that update is lost: 2026-07-28 has no resumption), and the client listens again for `relisten`
   * and catches up by reading what it caches again, past the SDK's cache.
   */
  async function dropped(relisten: string[]): Promise<{ findings: string[]; cause: string; v: V2Client; acked: unknown }> {
    const rec = await start();
    const v = await client(rec, [POLICY, FAQ]);
    const sub = await v.c.listen({ resourceSubscriptions: [POLICY, FAQ] });
    server!.edit(POLICY);
    await until(() => v.updates.length === 1 && v.reads(POLICY) === 2);
    expect(server!.dropListenSockets()).toBe(1);
    const cause = await sub.closed;
    server!.edit(FAQ); // no listen open: lost
    const again = await v.c.listen({ resourceSubscriptions: relisten });
    for (const uri of [POLICY, FAQ]) await v.c.readResource({ uri }, { cacheMode: 'refresh' });
    await sleep(200);
    return { findings: await judged(rec), cause, v, acked: again.honoredFilter };
  }

  it('re-listens with the same URIs and reads them again: nothing to say', async () => {
    const { findings, cause, v, acked } = await dropped([POLICY, FAQ]);
    expect(cause).toBe('remote');
    expect(acked).toEqual({ resourceSubscriptions: [POLICY, FAQ] });
    expect(v.reads(FAQ)).toBe(2);
    expect(findings).toEqual([]);
  }, 20_000);

  it('near miss: the re-listen leaves out a URI the client still caches — reported', async () => {
    const { findings, cause } = await dropped([POLICY]);
    expect(cause).toBe('remote');
    expect(findings).toEqual([`cached-not-subscribed ${FAQ} dropped-on-relisten warning`]);
  }, 20_000);
});

describe('SDK v2: a flapping connection — the listen drops three times, the app re-listens at once each time', () => {
  /** Each drop comes right after the re-listen that replaced the last one (well within the engine's 2 s grace). */
  async function flapping(last: string[]): Promise<{ findings: string[]; metrics: Record<string, unknown> }> {
    const rec = await start();
    const v = await client(rec, [POLICY, FAQ]);
    let sub = await v.c.listen({ resourceSubscriptions: [POLICY, FAQ] });
    for (let i = 0; i < 3; i++) {
      expect(server!.dropListenSockets()).toBe(1);
      expect(await sub.closed).toBe('remote');
      server!.edit(FAQ);
      sub = await v.c.listen({ resourceSubscriptions: i === 2 ? last : [POLICY, FAQ] });
      for (const uri of [POLICY, FAQ]) await v.c.readResource({ uri }, { cacheMode: 'refresh' });
    }
    await sleep(200);
    await rec.settle();
    const e = Engine.replay(rec.frames.slice());
    return { findings: await judged(rec), metrics: e.snapshot(e.lastT! + 3000).metrics as unknown as Record<string, unknown> };
  }

  it('three reconnects, each resubscribing everything: nothing to say, and counted as three', async () => {
    const { findings, metrics } = await flapping([POLICY, FAQ]);
    expect(findings).toEqual([]);
    expect(metrics).toMatchObject({ reconnects: 3, reconnectsResubscribed: 3, resubscribeShare: 1 });
  }, 20_000);

  it('near miss: the last re-listen leaves out the FAQ — reported, and that reconnect is not resubscribed', async () => {
    const { findings, metrics } = await flapping([POLICY]);
    expect(findings).toEqual([`cached-not-subscribed ${FAQ} dropped-on-relisten warning`]);
    expect(metrics).toMatchObject({ reconnects: 3, reconnectsResubscribed: 2 });
  }, 20_000);
});

describe('SDK v2: the server ends the listen stream gracefully', () => {
  async function ended(relisten: boolean): Promise<{ findings: string[]; cause: McpSubscription['closed'] extends Promise<infer C> ? C : never }> {
    const rec = await start();
    const v = await client(rec, [POLICY]);
    const sub = await v.c.listen({ resourceSubscriptions: [POLICY] });
    expect(await server!.endListens()).toBe(1);
    const cause = await sub.closed;
    if (relisten) {
      await v.c.listen({ resourceSubscriptions: [POLICY] });
      await v.c.readResource({ uri: POLICY }, { cacheMode: 'refresh' });
      server!.edit(POLICY);
      await until(() => v.updates.length === 1 && v.reads(POLICY) === 3);
    }
    await sleep(200);
    return { findings: await judged(rec), cause };
  }

  it('listens again after the end response: nothing to say', async () => {
    const { findings, cause } = await ended(true);
    expect(cause).toBe('graceful');
    expect(findings).toEqual([]);
  }, 20_000);

  it('near miss: no new listen while the cache is held — reported', async () => {
    const { findings, cause } = await ended(false);
    expect(cause).toBe('graceful');
    expect(findings).toEqual([`cached-not-subscribed ${POLICY} lost-with-stream error`, `phantom-subscription ${POLICY} - error`]);
  }, 20_000);
});

describe('SDK v2: ttlMs on reads', () => {
  it('listening, an update re-read, judged past the ttl: the subscription supersedes the ttl (info only)', async () => {
    const rec = await start({ ttlMs: 1000 });
    const v = await client(rec, [POLICY]);
    await v.c.listen({ resourceSubscriptions: [POLICY] });
    server!.edit(POLICY);
    await until(() => v.updates.length === 1 && v.reads(POLICY) === 2);
    await sleep(200);
    await rec.settle();
    const e = Engine.replay(rec.frames.slice());
    const now = e.lastT! + 5000;
    expect(e.snapshot(now).uris.find((u) => u.uri === POLICY)).toMatchObject({ ttlMs: 1000, expectedMaxAgeSource: 'ttl', serverHasSubscription: true, deliveryChannelOpen: true });
    expect(brief(e.findings(now), 'info')).toEqual([`cache-age-exceeded ${POLICY} ttl info`]);
  }, 20_000);

  it('near miss: the listen stream drops and nobody listens again: past the ttl the cache age is a warning too', async () => {
    const rec = await start({ ttlMs: 1000 });
    const v = await client(rec, [POLICY]);
    const sub = await v.c.listen({ resourceSubscriptions: [POLICY] });
    expect(server!.dropListenSockets()).toBe(1);
    expect(await sub.closed).toBe('remote');
    await sleep(200);
    expect(await judged(rec, 5000)).toEqual([
      `cache-age-exceeded ${POLICY} ttl warning`,
      `cached-not-subscribed ${POLICY} lost-with-stream error`,
      `phantom-subscription ${POLICY} - error`,
    ]);
  }, 20_000);

  /** A server without resources.subscribe: polling is all a client can do. `polls` reads through the SDK, 250 ms apart. */
  async function polling(polls: number): Promise<{ rec: FrameRecorder; v: V2Client }> {
    const rec = await start({ ttlMs: 1000, subscribe: false });
    const v = await client(rec, []);
    for (let i = 0; i < polls; i++) {
      await v.c.readResource({ uri: POLICY });
      await sleep(250);
    }
    await rec.settle();
    return { rec, v };
  }

  it('no subscriptions offered, polled through the SDK cache: the SDK reads on the wire once per ttl, nothing to say', async () => {
    const { rec, v } = await polling(14);
    // 14 polls over 3.5 s: the SDK's cache answered most of them, the wire saw a read about once a second.
    expect(v.reads(POLICY)).toBeGreaterThanOrEqual(3);
    expect(v.reads(POLICY)).toBeLessThanOrEqual(5);
    const e = Engine.replay(rec.frames.slice());
    expect(e.engineErrors).toBe(0);
    // Judged now, at the end of the polling (the last wire read may be up to a ttl back).
    const now = performance.timeOrigin + performance.now();
    expect(brief(e.findings(now), 'info')).toEqual([`cached-not-subscribed ${POLICY} never-subscribed info`]);
  }, 20_000);

  it('near miss: the client stops polling; judged past the ttl — reported', async () => {
    const { rec, v } = await polling(1);
    expect(v.reads(POLICY)).toBe(1);
    expect(await judged(rec, 3500)).toEqual([`cache-age-exceeded ${POLICY} ttl warning`]);
  }, 20_000);
});

describe('SDK v2: what the SDK client does by itself after a drop', () => {
  it("a catch-up read with the default cacheMode is answered from the SDK's cache: nothing reaches the wire", async () => {
    const rec = await start();
    const v = await client(rec, [FAQ]);
    const sub = await v.c.listen({ resourceSubscriptions: [FAQ] });
    expect(server!.dropListenSockets()).toBe(1);
    expect(await sub.closed).toBe('remote');
    server!.edit(FAQ); // lost: no listen open
    await v.c.listen({ resourceSubscriptions: [FAQ] });
    const r = await v.c.readResource({ uri: FAQ });
    // The client serves the version before the gap for up to the ttl (30 s); only cacheMode 'refresh' asks the server.
    expect((r.contents[0] as { text: string }).text).toBe('# FAQ\nversion 1\n');
    expect(v.reads(FAQ)).toBe(1);
    const fresh = await v.c.readResource({ uri: FAQ }, { cacheMode: 'refresh' });
    expect((fresh.contents[0] as { text: string }).text).toBe('# FAQ\nversion 2\n');
    expect(v.reads(FAQ)).toBe(2);
  }, 20_000);
});
