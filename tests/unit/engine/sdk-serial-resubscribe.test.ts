// The work runs on real traffic: the SDK v1 client, reconnected to the SDK v1 server, resubscribes what it believed
// subscribed in a `for … await` loop that does a little work per URI — 40 URIs, 3+ s in all, longer than the grace.
// Recorded in Node by the fetch wrapper that emits hook-shaped frames. Before the work runs (a false-positive audit,
// 2026-12-05) the last URIs of such a loop read as phantom subscriptions (errors); a loop that leaves one out must
// still be reported.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { brief } from '../../support/analyze.ts';
import { FrameRecorder } from '../../support/recording-fetch.ts';
import { startV1Server, type V1Server } from '../../support/v1-server.ts';

const uris = Array.from({ length: 40 }, (_, i) => `file:///docs/topic-${i}.md`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(server: V1Server, rec: FrameRecorder): Promise<Client> {
  const client = new Client({ name: 'serial-resubscribe', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch: rec.fetch }));
  return client;
}

/** Subscribe all, reconnect (a new client: a new initialize), then resubscribe one at a time, `gapMs` apart. */
async function serialResubscribe(server: V1Server, skip?: string): Promise<{ e: Engine; mid: Engine; tookMs: number }> {
  const rec = new FrameRecorder();
  const first = await connect(server, rec);
  for (const uri of uris) await first.subscribeResource({ uri });
  await first.close();
  const second = await connect(server, rec);
  const t0 = Date.now();
  for (const uri of uris) {
    await sleep(80); // the app's own work per URI (look up its view, its listeners)
    if (uri !== skip) await second.subscribeResource({ uri });
  }
  const tookMs = Date.now() - t0;
  await rec.settle();
  // Judged with the client still connected (a close() leaves its session's channel gone: that is said, by design).
  const frames = rec.frames.slice();
  await second.close();
  // Mid-loop: the capture up to the 30th resubscribe, as the panel saw it then.
  const reconnectAt = frames.filter((f) => f.kind === 'http-request' && f.body?.text.includes('"initialize"')).at(-1)!.seq;
  const at = frames.findIndex((f) => f.kind === 'http-request' && f.seq > reconnectAt && f.body?.text.includes('"resources/subscribe"') === true && f.body.text.includes(uris[30]!));
  const mid = Engine.replay(frames.slice(0, at + 1));
  return { e: Engine.replay(frames), mid, tookMs };
}

describe('SDK v1: a serial resubscribe loop after a reconnect', () => {
  let server: V1Server;
  beforeAll(async () => {
    server = await startV1Server();
  });
  afterAll(async () => {
    await server.close();
  });

  it('40 URIs, longer than the grace in all: no warning or error, while it runs or after', async () => {
    const { e, mid, tookMs } = await serialResubscribe(server);
    expect(tookMs).toBeGreaterThan(3000);
    expect(e.engineErrors).toBe(0);
    const midSnap = mid.snapshot(mid.lastT! + 50);
    // topic-30 on its way, the 9 after it still to come: none of them a phantom yet.
    expect(midSnap.uris.filter((r) => r.clientBelievesSubscribed && !r.serverHasSubscription).length).toBe(10);
    expect(midSnap.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(brief(e.findings(e.lastT! + 3000)).filter((x) => !x.endsWith(' info'))).toEqual([]);
  }, 30_000);

  it('near miss: the loop leaves one URI out — reported', async () => {
    const { e } = await serialResubscribe(server, uris[25]);
    expect(brief(e.findings(e.lastT! + 3000)).filter((x) => !x.endsWith(' info'))).toEqual([`phantom-subscription ${uris[25]} - error`]);
  }, 30_000);
});
