// Non-interference probes: what a page observes from fetch, EventSource and WebSocket, reduced to comparable values
// (timings are reduced to booleans against generous bounds). Run once with and once without the extension.
const rpc = (id: number, method = 'resources/read') =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: { uri: 'file:///docs/policy.md' } });
const post = (body: string, extra: RequestInit = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer secret-token' },
  body,
  ...extra,
});

async function digest(buf: ArrayBuffer): Promise<string> {
  const h = await crypto.subtle.digest('SHA-256', buf);
  return [...new Uint8Array(h)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function describeResponse(r: Response) {
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => (headers[k] = v));
  delete headers['date'];
  delete headers['keep-alive'];
  const buf = await r.arrayBuffer();
  return { status: r.status, statusText: r.statusText, ok: r.ok, url: r.url, redirected: r.redirected, type: r.type, headers, bytes: buf.byteLength, sha256: await digest(buf), bodyUsed: r.bodyUsed };
}

async function errorOf(p: Promise<unknown>, withStack = false) {
  try {
    await p;
    return { threw: false };
  } catch (e) {
    return {
      threw: true,
      name: (e as Error).name,
      message: (e as Error).message,
      isTypeError: e instanceof TypeError,
      isDOMException: e instanceof DOMException,
      // The console and a page's error reporter read the stack: an MCP fetch's must not point at the extension (a fetch
      // that is not MCP keeps the very native promise, and its error our frame: docs/architecture.md).
      ...(withStack ? { stackNamesExtension: /chrome-extension:/.test(String((e as Error).stack)) } : {}),
    };
  }
}

async function streaming(base: string) {
  const started = performance.now();
  const r = await fetch(`${base}/rpc-sse`, post(rpc(2)));
  const reader = r.body!.getReader();
  const first = await reader.read();
  const firstAt = performance.now() - started;
  let rest = '';
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += dec.decode(value, { stream: true });
  }
  // The server waits 400 ms between its two events: the first must arrive well before the second is sent.
  return { firstBeforeSecond: firstAt < 350, first: dec.decode(first.value), rest, contentType: r.headers.get('content-type') };
}

async function neverReadBodies(base: string) {
  // Several MCP responses (SSE and a 1 MB JSON) whose bodies the page never reads must not block later requests.
  const unread = await Promise.all([fetch(`${base}/rpc-sse`, post(rpc(3))), fetch(`${base}/rpc-sse`, post(rpc(4))), fetch(`${base}/big?mb=1`, post(rpc(5)))]);
  const t0 = performance.now();
  const next = await fetch(`${base}/rpc`, post(rpc(6)));
  await next.text();
  return { statuses: unread.map((r) => r.status), nextOk: next.ok, fast: performance.now() - t0 < 1000 };
}

async function abortBeforeResponse(base: string) {
  const c = new AbortController();
  const p = fetch(`${base}/slow`, post(rpc(7), { signal: c.signal }));
  setTimeout(() => c.abort(), 50);
  return errorOf(p);
}

async function abortDuringBody(base: string) {
  const c = new AbortController();
  const r = await fetch(`${base}/slow-body`, post(rpc(8), { signal: c.signal }));
  const reader = r.body!.getReader();
  const first = await reader.read();
  c.abort();
  const err = await errorOf(reader.read());
  return { firstBytes: first.value?.byteLength, ...err };
}

async function abortWithReason(base: string) {
  const c = new AbortController();
  const p = fetch(`${base}/slow`, post(rpc(9), { signal: c.signal }));
  c.abort(new RangeError('custom reason'));
  return errorOf(p);
}

/** Every way a page can cancel a streamed body: the server must see the disconnect (a tee must not keep it open). */
const CANCELS: Record<string, (body: ReadableStream<Uint8Array>) => Promise<void>> = {
  readerCancel: async (body) => {
    const reader = body.getReader();
    await reader.read();
    await reader.cancel();
  },
  // A pipe or an async iteration cancels the body inside the stream machinery, with no method call to see.
  pipeThroughCancel: async (body) => {
    const reader = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
  },
  asyncIteratorBreak: async (body) => {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) if (chunk) break;
  },
  pipeToAbort: async (body) => {
    const c = new AbortController();
    const done = body.pipeTo(new WritableStream({ write: () => c.abort() }), { signal: c.signal }).catch(() => undefined);
    await done;
  },
  // The prototypes' methods called on the body and on a reader got from the prototype's getReader.
  prototypeCancel: async (body) => {
    await ReadableStream.prototype.cancel.call(body);
  },
  prototypeReaderCancel: async (body) => {
    const reader = ReadableStream.prototype.getReader.call(body) as ReadableStreamDefaultReader<Uint8Array>;
    await reader.read();
    await ReadableStreamDefaultReader.prototype.cancel.call(reader);
  },
};

async function sseCancelClosesConnection(base: string, how: keyof typeof CANCELS, path = '/rpc-sse-forever') {
  const before = await (await fetch(`${base}/forever-state`)).json();
  const r = await fetch(`${base}${path}`, post(rpc(10)));
  await CANCELS[how]!(r.body!);
  // Give the server up to 10 s to see the disconnect: a kept-open tee never closes, but Chromium itself (without the
  // extension too) sometimes takes more than 3 s to drop a cancelled body's connection on a loaded machine.
  let after = before;
  for (let i = 0; i < 200; i++) {
    after = await (await fetch(`${base}/forever-state`)).json();
    if (after.closed > before.closed) break;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  return { opened: after.opened - before.opened, closed: after.closed - before.closed };
}

async function webSocketEcho(wsUrl: string) {
  return new Promise((ok) => {
    const ws = new WebSocket(wsUrl);
    const got: string[] = [];
    ws.onopen = () => {
      ws.send('hello');
      ws.send(rpc(11));
    };
    ws.onmessage = (e) => {
      got.push(String(e.data));
      if (got.length === 2) ws.close(1000, 'done');
    };
    ws.onclose = (e) => ok({ got, code: e.code, reason: e.reason, wasClean: e.wasClean, protocol: ws.protocol });
  });
}

/** send() without an argument throws a TypeError and sends nothing (not the text "undefined"). */
async function webSocketSendNoArgument(wsUrl: string) {
  const ws = new WebSocket(wsUrl);
  await new Promise((ok) => (ws.onopen = ok));
  const got: string[] = [];
  ws.onmessage = (e) => got.push(String(e.data));
  let error: unknown;
  try {
    (ws.send as () => void)();
  } catch (e) {
    error = e;
  }
  ws.send('after');
  await new Promise((ok) => setTimeout(ok, 300));
  ws.close();
  return { threw: error instanceof TypeError, got };
}

async function eventSource(base: string) {
  return new Promise((ok) => {
    const es = new EventSource(`${base}/es`);
    const got: Array<[string, string, string]> = [];
    const record = (e: MessageEvent) => {
      got.push([e.type, e.data, e.lastEventId]);
      if (got.length === 3) {
        es.close();
        ok({ got, readyState: es.readyState });
      }
    };
    es.onmessage = record;
    es.addEventListener('endpoint', record as EventListener);
  });
}

export async function runProbes(base: string, deadUrl: string, wsUrl: string) {
  const out: Record<string, unknown> = {};
  const probe = async (name: string, f: () => Promise<unknown>) => {
    try {
      out[name] = await f();
    } catch (e) {
      out[name] = { probeFailed: String(e) };
    }
  };
  await probe('mcpJson', async () => describeResponse(await fetch(`${base}/rpc`, post(rpc(1)))));
  await probe('mcpJsonViaRequest', async () => describeResponse(await fetch(new Request(`${base}/rpc`, post(rpc(1))))));
  await probe('mcpBatch', async () => describeResponse(await fetch(`${base}/rpc`, post(`[${rpc(1)},${rpc(2)}]`))));
  await probe('mcpRedirect', async () => describeResponse(await fetch(`${base}/redirect`, post(rpc(1)))));
  await probe('mcpStatus404', async () => describeResponse(await fetch(`${base}/rpc-404`, post(rpc(1)))));
  await probe('mcpBinary', async () => describeResponse(await fetch(`${base}/binary`, post(rpc(1)))));
  await probe('mcpHead', async () => describeResponse(await fetch(`${base}/rpc`, { method: 'HEAD', headers: { 'mcp-session-id': 'abc' } })));
  await probe('mcpDelete', async () => describeResponse(await fetch(`${base}/rpc`, { method: 'DELETE', headers: { 'mcp-session-id': 'abc' } })));
  await probe('nonMcpGet', async () => describeResponse(await fetch(`${base}/plain`)));
  await probe('nonMcpPost', async () => describeResponse(await fetch(`${base}/rpc`, { method: 'POST', body: 'hello=1' })));
  await probe('streaming', () => streaming(base));
  await probe('neverReadBodies', () => neverReadBodies(base));
  await probe('abortBeforeResponse', () => abortBeforeResponse(base));
  await probe('abortDuringBody', () => abortDuringBody(base));
  await probe('abortWithReason', () => abortWithReason(base));
  await probe('networkFailureMcp', () => errorOf(fetch(deadUrl, post(rpc(1))), true));
  await probe('networkFailurePlain', () => errorOf(fetch(deadUrl)));
  await probe('badUrl', () => errorOf(fetch('http://[::1', post(rpc(1)))));
  await probe('badHeaders', () => errorOf(fetch(`${base}/rpc`, { method: 'POST', headers: { 'bad header': 'x' }, body: rpc(1) })));
  await probe('binaryBodies', async () => {
    // Bodies that are not UTF-8 text reach the server byte for byte (the tap reads them from a clone, and logs them
    // opaque: their size and hash, no lossy text). A form's boundary is random: only its size compares.
    const bin = () => new Uint8Array([1, 2, 3, 255]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0, 255, 254, 1, 2])]), 'f.bin');
    const seen = async (input: string | Request, init?: RequestInit) => {
      const r = await fetch(input, init);
      return JSON.parse(((await r.json()) as { error: { message: string } }).error.message) as { bytes: number; sha256: string };
    };
    const url = `${base}/echo-bytes`;
    // (An MCP header makes them MCP to the tap: a binary body is never JSON-RPC.)
    const headers = { 'mcp-protocol-version': '2025-11-25', accept: 'application/json, text/event-stream' };
    const mcpPost = (body: BodyInit): RequestInit => ({ method: 'POST', headers: { ...headers, 'content-type': 'application/octet-stream' }, body });
    return {
      blob: await seen(url, mcpPost(new Blob([bin()]))),
      typed: await seen(url, mcpPost(bin())),
      buffer: await seen(url, mcpPost(bin().buffer)),
      request: await seen(new Request(url, mcpPost(bin()))),
      formBytes: (await seen(url, { method: 'POST', headers, body: form })).bytes,
    };
  });
  await probe('oneShotHeaders', async () => {
    // Headers from a generator can be iterated once: the native fetch must get them, not the tap.
    function* headers(): Generator<[string, string]> {
      yield ['content-type', 'application/json'];
      yield ['mcp-protocol-version', '2025-11-25'];
    }
    const r = await fetch(`${base}/echo-headers`, { method: 'POST', headers: headers() as unknown as HeadersInit, body: rpc(7) });
    const text = ((await r.clone().json()) as { result: { contents: Array<{ text: string }> } }).result.contents[0]!.text;
    return { ...(await describeResponse(r)), serverSaw: JSON.parse(text) as unknown };
  });
  await probe('oneShotHeadersWithRequest', async () => {
    // The same with a Request input whose body the tap must clone first: the init's headers still reach the server.
    function* headers(): Generator<[string, string]> {
      yield ['content-type', 'application/json'];
      yield ['mcp-protocol-version', '2025-11-25'];
    }
    const req = new Request(`${base}/echo-headers`, { method: 'POST', body: rpc(8) });
    const r = await fetch(req, { headers: headers() as unknown as HeadersInit });
    const text = ((await r.clone().json()) as { result: { contents: Array<{ text: string }> } }).result.contents[0]!.text;
    return { ...(await describeResponse(r)), serverSaw: JSON.parse(text) as unknown };
  });
  await probe('streamBodyRequest', async () => {
    // A Request whose body is an endless stream (a streaming upload, refused over HTTP/1.1) to a URL that is not MCP:
    // the tap may look at its first 64 KiB, never pull the page's stream on and on.
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (c) => void (pulls++, c.enqueue(new Uint8Array(1 << 20))) }, { highWaterMark: 0 });
    const req = new Request(`${base}/upload`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    const outcome = await errorOf(fetch(req));
    await new Promise((r) => setTimeout(r, 500));
    return { outcome, fewPulls: pulls <= 3 };
  });
  await probe('usedRequest', async () => {
    const req = new Request(`${base}/rpc`, post(rpc(1)));
    await req.text();
    return errorOf(fetch(req));
  });
  await probe('throwingCloneInPage', async () => {
    // A page that breaks Response.prototype.clone: our tap fails inside, the page must still get its response.
    const orig = Response.prototype.clone;
    Response.prototype.clone = () => {
      throw new Error('page broke clone');
    };
    try {
      return describeResponse(await fetch(`${base}/rpc`, post(rpc(12))));
    } finally {
      Response.prototype.clone = orig;
    }
  });
  for (const how of Object.keys(CANCELS)) await probe(`sseCancelClosesConnection:${how}`, () => sseCancelClosesConnection(base, how));
  // A JSON body too (not a stream the tap watches): the page's cancel stops our clone's download as well.
  await probe('jsonCancelClosesConnection', () => sseCancelClosesConnection(base, 'readerCancel', '/rpc-json-forever'));
  await probe('webSocketEcho', () => webSocketEcho(wsUrl));
  await probe('webSocketSendNoArgument', () => webSocketSendNoArgument(wsUrl));
  await probe('eventSource', () => eventSource(base));
  await probe('pagePatchedThen', async () => {
    // zone.js patches Promise.prototype.then: the hook's own continuations must not go through the page's.
    const native = Promise.prototype.then;
    let calls = 0;
    Promise.prototype.then = function (this: Promise<unknown>, ...args: unknown[]) {
      calls++;
      return (native as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    } as typeof native;
    try {
      const r = await fetch(`${base}/rpc`, post(rpc(13)));
      await r.text();
      await new Promise((ok) => setTimeout(ok, 300));
    } finally {
      Promise.prototype.then = native;
    }
    return { calls };
  });
  await probe('wrapperShapes', async () => {
    const fns = [WebSocket.prototype.send, EventSource.prototype.close, EventTarget.prototype.addEventListener];
    return fns.map((f) => {
      let constructible = true;
      try {
        Reflect.construct(String, [], f);
      } catch {
        constructible = false;
      }
      return { hasPrototype: 'prototype' in f, constructible, length: f.length };
    });
  });
  await probe('syncErrors', async () => {
    // What a synchronous throw says, and whether its stack names an extension (the console and error reporters read it).
    const thrown = (f: () => unknown) => {
      try {
        f();
        return 'no throw';
      } catch (e) {
        const err = e as Error;
        return { name: err.name, message: err.message, stackNamesExtension: /chrome-extension:/.test(String(err.stack)) };
      }
    };
    const connecting = new WebSocket(wsUrl);
    const out = {
      wsBadScheme: thrown(() => new WebSocket('ftp://x')),
      wsSendConnecting: thrown(() => connecting.send('x')),
      esBadUrl: thrown(() => new EventSource('http://[::1')),
      addListenerNoArgs: thrown(() => (document.addEventListener as unknown as () => void)()),
      // What the page itself throws from a conversion the native call makes is the page's, untouched.
      pageValue: (() => {
        const mine = {};
        try {
          connecting.send({ toString: () => { throw mine; } } as unknown as string);
        } catch (e) {
          return { same: e === mine, hasStack: 'stack' in (e as object) };
        }
        return 'no throw';
      })(),
      pageError: (() => {
        try {
          connecting.send({ toString: function pageToString() { throw new Error('mine'); } } as unknown as string);
        } catch (e) {
          const stack = String((e as Error).stack);
          return { message: (e as Error).message, keepsItsFrame: stack.includes('pageToString'), stackNamesExtension: /chrome-extension:/.test(stack) };
        }
        return 'no throw';
      })(),
    };
    connecting.close();
    return out;
  });
  await probe('bodySurface', async () => {
    // An MCP SSE body and its reader have no own properties, and their methods are the prototypes'.
    const r = await fetch(`${base}/rpc-sse`, post(rpc(14)));
    const body = r.body!;
    const surface = { own: Object.getOwnPropertyNames(body), same: [body.getReader === ReadableStream.prototype.getReader, body.cancel === ReadableStream.prototype.cancel] };
    const reader = body.getReader();
    const readerSurface = { own: Object.getOwnPropertyNames(reader), same: reader.cancel === ReadableStreamDefaultReader.prototype.cancel };
    while (!(await reader.read()).done);
    return { surface, readerSurface };
  });
  await probe('crossRealmToString', async () => {
    // Another frame's Function.prototype.toString (the usual way to get an untouched one) on our wrappers, and ours on
    // the frame's.
    const frame = document.createElement('iframe');
    document.body.appendChild(frame);
    const w = frame.contentWindow as unknown as typeof window;
    const fns = [fetch, WebSocket, EventSource, WebSocket.prototype.send, EventSource.prototype.close, EventTarget.prototype.addEventListener, Function.prototype.toString, ReadableStream.prototype.getReader, ReadableStream.prototype.cancel];
    const theirs = fns.map((f) => w.Function.prototype.toString.call(f));
    const ours = [w.fetch, w.WebSocket, w.EventTarget.prototype.addEventListener].map((f) => Function.prototype.toString.call(f));
    frame.remove();
    return { theirs, ours };
  });
  await probe('streamCancelErrors', async () => {
    // The cancel wrappers are on every stream's prototype: a cancel the native rejects at once (a locked body, a
    // receiver that is no stream) must not name the extension in its stack (found by a review, 2026-12-05).
    const rejection = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: Error) => ({ name: e.name, stackNamesExtension: /chrome-extension:/.test(String(e.stack)) }),
      );
    const locked = new ReadableStream();
    locked.getReader();
    const r = await fetch(`${base}/rpc`, post(rpc(1)));
    await r.json();
    return {
      locked: await rejection(locked.cancel()),
      lockedBody: await rejection(r.body!.cancel()),
      wrongThis: await rejection(ReadableStream.prototype.cancel.call({})),
    };
  });
  await probe('toStringBadThis', async () => {
    try {
      Function.prototype.toString.call({});
      return 'no throw';
    } catch (e) {
      return { name: (e as Error).name, stackNamesExtension: /chrome-extension:/.test(String((e as Error).stack)) };
    }
  });
  await probe('pagePatchedPrototypes', async () => {
    // A page that counts calls to the fetch API's methods and getters (an APM agent, a polyfill) sees only its own.
    const counts: Record<string, number> = {};
    const undo: Array<() => void> = [];
    const count = (proto: object, key: string) => {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      const orig = (d.value ?? d.get) as (...a: unknown[]) => unknown;
      const f = function (this: unknown, ...a: unknown[]) {
        counts[key] = (counts[key] ?? 0) + 1;
        return orig.apply(this, a);
      };
      Object.defineProperty(proto, key, d.value ? { ...d, value: f } : { ...d, get: f });
      undo.push(() => Object.defineProperty(proto, key, d));
    };
    for (const k of ['clone', 'body', 'bodyUsed', 'headers', 'status', 'statusText', 'url', 'redirected']) count(Response.prototype, k);
    for (const k of ['clone', 'body', 'bodyUsed', 'url', 'method', 'headers']) count(Request.prototype, k);
    for (const k of ['get', 'forEach']) count(Headers.prototype, k);
    for (const k of ['url', 'protocol']) count(WebSocket.prototype, k);
    count(URLSearchParams.prototype, 'toString');
    count(Array.prototype, 'map');
    count(ReadableStream.prototype, 'getReader');
    count(ReadableStreamDefaultReader.prototype, 'read');
    try {
      await (await fetch(`${base}/rpc`, post(rpc(15)))).text();
      await (await fetch(new Request(`${base}/rpc`, post(rpc(16))))).text();
      await (await fetch(`${base}/rpc-sse`, post(rpc(17)))).text();
      await (await fetch(`${base}/rpc`, { method: 'POST', body: new URLSearchParams({ q: rpc(18) }) })).text();
      const ws = new WebSocket(wsUrl, ['a', 'b']);
      await new Promise((ok) => (ws.onopen = ws.onerror = ok));
      ws.close();
      await new Promise((ok) => setTimeout(ok, 300));
    } finally {
      for (const u of undo) u();
    }
    return counts;
  });
  await probe('initReadOnce', async () => {
    // The native fetch reads init's members (getters, a Proxy's traps) and converts input and body once: so does the
    // page's call with the extension.
    const reads: string[] = [];
    const init = {};
    for (const [k, v] of Object.entries(post(rpc(19)))) Object.defineProperty(init, k, { enumerable: true, get: () => (reads.push(k), v) });
    await (await fetch(`${base}/rpc`, init)).text();
    const input = { toString: () => (reads.push('input'), `${base}/rpc`) };
    await (await fetch(input as unknown as string, post(rpc(20)))).text();
    const body = { toString: () => (reads.push('body.toString'), rpc(21)) };
    await (await fetch(`${base}/rpc`, post(body as unknown as string))).text();
    const traps: string[] = [];
    const proxied = new Proxy(post(rpc(22)), {
      get: (t, k, r) => (traps.push(`get ${String(k)}`), Reflect.get(t, k, r)),
      has: (t, k) => (traps.push(`has ${String(k)}`), Reflect.has(t, k)),
    });
    await (await fetch(`${base}/rpc`, proxied)).text();
    return { reads, traps };
  });
  await probe('syncRejections', async () => {
    // Rejections the native fetch makes at once, while our wrapper is on the stack: their stacks must not name us.
    const used = new Request(`${base}/plain`, { method: 'POST', body: 'x' });
    await used.text();
    const locked = new Request(`${base}/plain`, { method: 'POST', body: 'x' });
    locked.body!.getReader();
    return {
      usedBody: await errorOf(fetch(used), true),
      lockedBody: await errorOf(fetch(locked), true),
      badUrl: await errorOf(fetch('http://[::1'), true),
      badHeader: await errorOf(fetch(`${base}/plain`, { headers: { 'bad name': 'x' } }), true),
      getWithBody: await errorOf(fetch(`${base}/plain`, { method: 'GET', body: 'x' }), true),
      illegalReceiver: await errorOf((fetch as (this: unknown, u: string) => Promise<Response>).call({}, `${base}/plain`), true),
    };
  });
  await probe('eventGetters', async () => {
    // A page that counts reads of the events' getters sees only its own (the taps read through the natives), and the
    // page's own synthetic events on a socket or an EventSource break nothing.
    const counts: Record<string, number> = {};
    const undo: Array<() => void> = [];
    const count = (proto: object, key: string) => {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      const orig = d.get!;
      Object.defineProperty(proto, key, { ...d, get(this: unknown) { counts[key] = (counts[key] ?? 0) + 1; return orig.call(this); } });
      undo.push(() => Object.defineProperty(proto, key, d));
    };
    for (const k of ['data', 'lastEventId']) count(MessageEvent.prototype, k);
    for (const k of ['code', 'reason', 'wasClean']) count(CloseEvent.prototype, k);
    count(Event.prototype, 'type');
    for (const k of ['url', 'withCredentials', 'readyState']) count(EventSource.prototype, k);
    const errors: string[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.message);
    window.addEventListener('error', onError);
    try {
      const ws = new WebSocket(wsUrl, ['mcp']);
      await new Promise((ok) => ws.addEventListener('open', ok));
      ws.send(rpc(23));
      await new Promise((ok) => setTimeout(ok, 300));
      for (const type of ['message', 'close', 'error', 'open']) ws.dispatchEvent(new Event(type));
      ws.close();
      await new Promise((ok) => setTimeout(ok, 200));
      const es = new EventSource(`${base}/es`);
      es.addEventListener('endpoint', () => undefined);
      await new Promise((ok) => setTimeout(ok, 500));
      for (const type of ['message', 'endpoint', 'error']) es.dispatchEvent(new Event(type));
      es.close();
    } finally {
      for (const u of undo) u();
      window.removeEventListener('error', onError);
    }
    return { counts, errors };
  });
  await probe('hotPathBuiltins', async () => {
    // The wrappers run on every addEventListener, send and fetch of the page: a page that patches WeakMap's methods or
    // Reflect's sees none of their calls.
    const counts: Record<string, number> = {};
    const undo: Array<() => void> = [];
    const count = (obj: object, key: string, label: string) => {
      const d = Object.getOwnPropertyDescriptor(obj, key)!;
      const orig = d.value as (...a: unknown[]) => unknown;
      Object.defineProperty(obj, key, { ...d, value: function (this: unknown, ...a: unknown[]) { counts[label] = (counts[label] ?? 0) + 1; return orig.apply(this, a); } });
      undo.push(() => Object.defineProperty(obj, key, d));
    };
    count(WeakMap.prototype, 'get', 'WeakMap.get');
    count(WeakMap.prototype, 'set', 'WeakMap.set');
    count(Reflect, 'apply', 'Reflect.apply');
    count(Reflect, 'construct', 'Reflect.construct');
    try {
      const el = document.createElement('div');
      for (let i = 0; i < 3; i++) el.addEventListener('click', () => undefined);
      await (await fetch(`${base}/plain`)).text();
      const ws = new WebSocket(wsUrl);
      await new Promise((ok) => ws.addEventListener('open', ok));
      ws.send('hello');
      await new Promise((ok) => setTimeout(ok, 200));
      ws.close();
      new EventSource(`${base}/plain`).close();
    } finally {
      for (const u of undo) u();
    }
    return counts;
  });
  await probe('identity', async () => ({
    fetchName: fetch.name,
    fetchLength: fetch.length,
    fetchToString: Function.prototype.toString.call(fetch),
    toStrings: [fetch, EventSource, WebSocket, EventSource.prototype.close, EventSource.prototype.addEventListener, WebSocket.prototype.send, Function.prototype.toString].map((f) => String(f)),
    ownProps: [Object.getOwnPropertyNames(EventSource.prototype).sort(), Object.getOwnPropertyNames(WebSocket.prototype).sort()],
    esName: EventSource.name,
    esConstants: [EventSource.CONNECTING, EventSource.OPEN, EventSource.CLOSED],
    wsName: WebSocket.name,
    wsInstanceOf: new WebSocket(wsUrl) instanceof WebSocket,
    constructors: [new WebSocket(wsUrl).constructor === WebSocket, WebSocket.prototype.constructor === WebSocket, EventSource.prototype.constructor === EventSource],
    ownKeysOfWindowWithMcp: Object.keys(window).filter((k) => /mcp/i.test(k)),
    ownSymbolsOfWindow: Object.getOwnPropertySymbols(window).map(String),
  }));
  return out;
}
Object.assign(window, { runProbes });
