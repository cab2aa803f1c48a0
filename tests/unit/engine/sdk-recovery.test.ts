// Healthy recoveries on real traffic: SDK v1 clients against the SDK v1 test server with faults switched on, recorded in
// Node by the fetch wrapper that emits hook-shaped frames. Each case was a false positive found by an audit on real
// SDK traffic (2026-12-05) and fixed at unit level; these keep them fixed on the wire the SDK really produces, and
// each has a near miss that must still be reported.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { brief } from '../../support/analyze.ts';
import { FrameRecorder } from '../../support/recording-fetch.ts';
import { startV1Server, type V1Server } from '../../support/v1-server.ts';
import { sleep, until } from '../../support/until.ts';

const POLICY = 'file:///docs/policy.md';

let server: V1Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client whose handler re-reads each update through `reread`; reads and subscribes `uris` first. */
async function client(rec: FrameRecorder, uris: string[], reread: (c: Client, uri: string) => Promise<void>): Promise<{ c: Client; updates: () => number }> {
  const c = new Client({ name: 'recovery', version: '1.0.0' });
  let updates = 0;
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    updates++;
    await reread(c, n.params.uri);
  });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`), { fetch: rec.fetch }));
  for (const uri of uris) {
    await c.readResource({ uri });
    await c.subscribeResource({ uri });
  }
  return { c, updates: () => updates };
}

/** Warnings and errors (and notes, with `info`) once everything settled, judged with the client still connected. */
async function judged(rec: FrameRecorder, c: Client, info = false): Promise<string[]> {
  await rec.settle();
  const e = Engine.replay(rec.frames.slice());
  await c.close();
  expect(e.engineErrors).toBe(0);
  return brief(e.findings(e.lastT! + 3000), info ? 'info' : 'warning');
}

describe('SDK v1: the GET stream blips and the client recovers it by itself', () => {
  /** The GET socket is reset; the next `fails` GETs meet a 503; a document changes 500 ms into the gap. */
  async function blip(fails: number, eventStore = true): Promise<{ findings: string[]; updates: number; gets: Array<string | undefined> }> {
    server = await startV1Server({ eventStore });
    const rec = new FrameRecorder();
    const { c, updates } = await client(rec, [POLICY], async (c, uri) => void (await c.readResource({ uri })));
    // The SDK opens its GET stream in the background after `initialized`: an update before it is stored, not sent.
    await until(() => server!.openGetStreams() === 1);
    await server.edit(POLICY);
    await until(() => updates() === 1);
    await sleep(200); // the GET stream has carried an event id (with an event store)
    server.failNextGets(fails);
    expect(server.dropGetSockets()).toBe(1);
    await sleep(500);
    await server.edit(POLICY); // sent while no stream is open: stored, replayed on a resume
    await sleep(3200);
    await until(() => updates() === 2, 1500).catch(() => undefined);
    const gets = rec.frames.flatMap((f) => (f.kind === 'http-request' && f.method === 'GET' ? [f.headers['last-event-id']] : []));
    return { findings: await judged(rec, c, !eventStore), updates: updates(), gets };
  }

  it('one 503, then resumed with Last-Event-ID 2.5 s after the drop: the update sent in the gap is replayed and re-read, nothing to say', async () => {
    const { findings, updates, gets } = await blip(1);
    expect(gets.length).toBe(3);
    expect(gets[0]).toBeUndefined();
    expect(gets.slice(1).every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(updates).toBe(2);
    expect(findings).toEqual([]);
  }, 20_000);

  it('a server without an event store: its GET stream carries no ids, the update sent in the gap is lost — noted (info)', async () => {
    const { findings, updates, gets } = await blip(1, false);
    expect(gets).toEqual([undefined, undefined, undefined]);
    expect(updates).toBe(1);
    // The session's stream, and the URI whose cache it left stale (the client did not read it again).
    expect(findings).toEqual(['resume-gap - no-event-ids info', `resume-gap ${POLICY} no-event-ids info`]);
  }, 20_000);

  it('near miss: 503 on every retry, the SDK gives up after two: the subscription has no channel — reported', async () => {
    const { findings, updates } = await blip(5);
    expect(updates).toBe(1);
    expect(findings).toEqual([`no-delivery-channel ${POLICY} closed error`]);
  }, 20_000);
});

describe('SDK v1: a client that re-reads through a one-at-a-time queue', () => {
  const uris = Array.from({ length: 60 }, (_, i) => `file:///docs/topic-${i}.md`);

  async function queue(skip?: string): Promise<string[]> {
    server = await startV1Server();
    for (const uri of uris) server.docs.set(uri, `# ${uri}\nversion 1\n`);
    const rec = new FrameRecorder();
    let done = 0;
    let chain: Promise<unknown> = Promise.resolve();
    const { c } = await client(rec, uris, async (c, uri) => {
      chain = chain.then(async () => {
        if (uri !== skip) await c.readResource({ uri });
        done++;
      });
    });
    await sleep(300);
    server.setReadDelay(50); // 60 × 50 ms: the last re-read goes out 3 s after its notification
    for (const uri of uris) await server.edit(uri);
    await until(() => done === uris.length, 20_000);
    await sleep(300);
    return judged(rec, c);
  }

  it('60 updates at once, 50 ms per read: every one re-read in turn, none reported late', async () => {
    expect(await queue()).toEqual([]);
  }, 30_000);

  it('near miss: the queue drops one URI — reported', async () => {
    expect(await queue(uris[40])).toEqual([`notified-not-reread ${uris[40]} - warning`]);
  }, 30_000);
});

describe('SDK v1: the server deletes a resource the client caches', () => {
  async function deleted(unsubscribe: boolean): Promise<{ findings: string[]; failures: string[] }> {
    server = await startV1Server();
    const rec = new FrameRecorder();
    const failures: string[] = [];
    const { c } = await client(rec, [POLICY, 'file:///docs/faq.md'], async (c, uri) => {
      try {
        await c.readResource({ uri });
      } catch (e) {
        failures.push(String(e));
        if (unsubscribe) await c.unsubscribeResource({ uri });
      }
    });
    await sleep(300);
    expect(await server.remove(POLICY)).toBe(1);
    await until(() => failures.length === 1);
    await sleep(300);
    return { findings: await judged(rec, c), failures };
  }

  it('notified, the re-read says "Resource not found" (-32002), the client unsubscribes: nothing to say', async () => {
    const { findings, failures } = await deleted(true);
    expect(failures[0]).toMatch(/-32002/);
    expect(findings).toEqual([]);
  }, 20_000);

  it('the same, the subscription left in place: still nothing — the server has nothing left to notify about', async () => {
    expect((await deleted(false)).findings).toEqual([]);
  }, 20_000);
});
