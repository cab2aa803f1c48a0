import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashText } from '../../../shared/hash.ts';
import { DEFAULT_BODY_CAP_BYTES, makePayload, payloadHash, utf8Length, recapPayload, SUBSCRIPTION_SET_CAP_BYTES } from '../../../shared/payload.ts';
import { redactHeaders, redactSubprotocol, redactUrl, redactUrlsIn, redactValue } from '../../../shared/redact.ts';

describe('redaction', () => {
  it('redacts secret headers with a stable short hash and keeps the rest', () => {
    const out = redactHeaders({ Authorization: 'Bearer abc', Cookie: 'a=b', 'X-Tenant-Auth': 't', 'X-Api-Key': 'k', 'Mcp-Session-Id': 's1', Accept: 'text/event-stream' });
    expect(out.authorization).toBe(redactValue('Bearer abc'));
    expect(out.authorization).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(out.cookie).not.toContain('a=b');
    expect(out['x-tenant-auth']).toMatch(/^\[redacted:/);
    expect(out['x-api-key']).toMatch(/^\[redacted:/);
    expect(out['mcp-session-id']).toBe('s1');
    expect(out.accept).toBe('text/event-stream');
  });
  it('redacts token-like query parameters but keeps the MCP sessionId', () => {
    const u = redactUrl('http://h.test/sse?access_token=abc&sessionId=xyz&page=2');
    expect(u).toContain('sessionId=xyz');
    expect(u).toContain('page=2');
    expect(u).not.toContain('abc');
    expect(redactUrl('/message?sessionId=1')).toBe('/message?sessionId=1');
    expect(redactUrl('/x?api_key=secret')).toMatch(/^\/x\?api_key=%5Bredacted%3A[0-9a-f]{8}%5D$/);
    expect(redactUrl('http://user:pw@h.test/')).not.toContain('pw');
  });
  it('redacts names with a credential word anywhere, changes nothing else of the URL, and keeps harmless uses', () => {
    const u = redactUrl('https://h.test/mcp?q=a/b~c%20d&auth_token=S2&apiToken=S3&private_token=S4&X-API-KEY=S5&access-key=S6&session_token=S7&max_tokens=100&token_type=bearer');
    for (const s of ['S2', 'S3', 'S4', 'S5', 'S6', 'S7']) expect(u).not.toContain(`=${s}`);
    // What is not secret stays byte for byte (no re-encoding of the query).
    expect(u).toMatch(/^https:\/\/h\.test\/mcp\?q=a\/b~c%20d&auth_token=%5Bredacted%3A[0-9a-f]{8}%5D&/);
    expect(u).toMatch(/&max_tokens=100&token_type=bearer$/);
    expect(redactUrl(u)).toBe(u);
    // Userinfo goes whole (a password, a bare token, a key with an empty or placeholder password), however spelled,
    // with an `@` inside it; the rest of the URL stays.
    expect(redactUrl('https://me:pw@h.test/x?y=1')).toMatch(/^https:\/\/%5Bredacted%3A[0-9a-f]{8}%5D@h\.test\/x\?y=1$/);
    expect(redactUrl('https://ghp_TOKEN@github.com/x')).toMatch(/^https:\/\/%5Bredacted%3A[0-9a-f]{8}%5D@github\.com\/x$/);
    for (const odd of ['//user:pw@h/x', 'https:/user:pw@h', 'https:\\\\user:pw@h', ' https://user:pw@h', 'https://a@b:pw@h/', 'https://user:p@ss@h/', 'https://sk_live_abc:@h/', 'https://ghp_SECRET:x-oauth-basic@h/']) {
      const r = redactUrl(odd);
      expect(r, odd).not.toMatch(/pw@|p@|ss@h|sk_live|ghp_/);
      expect(r, odd).toMatch(/%5Bredacted%3A[0-9a-f]{8}%5D@h/);
      expect(redactUrl(r), odd).toBe(r);
    }
    // A value that only starts like a redacted one is still a secret; a scheme without // has no userinfo.
    expect(redactUrl('https://h/x?token=[redacted:zz]REAL')).not.toContain('REAL');
    expect(redactUrl('https://u:[redacted:00000000]REALPW@h/')).not.toContain('REALPW');
    expect(redactUrl('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    // Plural "tokens" holding tokens stays secret; LLM counts do not.
    expect(redactUrl('/x?access_tokens=S&api_tokens=T&input_tokens=5&max_completion_tokens=9')).toMatch(/^\/x\?access_tokens=%5Bredacted%3A[0-9a-f]{8}%5D&api_tokens=%5Bredacted%3A[0-9a-f]{8}%5D&input_tokens=5&max_completion_tokens=9$/);
    // An @ in a path is not userinfo, and the MCP session stays.
    expect(redactUrl('/a@b/c?sessionId=1')).toBe('/a@b/c?sessionId=1');
    // A header value that only starts like a redacted one is redacted.
    expect(redactHeaders({ Authorization: '[redacted:x] realtoken' }).authorization).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    // URL-valued headers keep their URL, with its secrets redacted.
    const h = redactHeaders({ Referer: 'https://app.test/kb?code=SECRET7&tab=2', Location: '/next?token=T' });
    expect(h.referer).toMatch(/^https:\/\/app\.test\/kb\?code=%5Bredacted%3A[0-9a-f]{8}%5D&tab=2$/);
    expect(h.location).toMatch(/^\/next\?token=%5Bredacted/);
  });

  it('redacts the same parameters in a fragment (OAuth implicit flow), and leaves route fragments alone', () => {
    const u = redactUrl('https://app.test/callback?state=s1#access_token=tok-123&token_type=bearer&expires_in=3600');
    expect(u).not.toContain('tok-123');
    expect(u).toMatch(/#access_token=%5Bredacted%3A[0-9a-f]{8}%5D&token_type=bearer&expires_in=3600$/);
    expect(u).toContain('state=s1');
    expect(redactUrl(u)).toBe(u);
    expect(redactUrl('https://app.test/#/docs/policy')).toBe('https://app.test/#/docs/policy');
    expect(redactUrl('https://app.test/kb#section=2')).toBe('https://app.test/kb#section=2');
    expect(redactUrl('/cb#id_token=abc')).toMatch(/^\/cb#id_token=%5Bredacted/);
    // Hash routers: the parameters sit after a route.
    expect(redactUrl('https://a.test/#/access_token=SECRET&token_type=bearer')).toMatch(/^https:\/\/a\.test\/#\/access_token=%5Bredacted%3A[0-9a-f]{8}%5D&token_type=bearer$/);
    expect(redactUrl('https://a.test/#/cb?code=SECRET')).toMatch(/^https:\/\/a\.test\/#\/cb\?code=%5Bredacted/);
    // Every occurrence, and nothing else re-encoded.
    const twice = redactUrl('https://a.test/x#state=/x&token=a&token=b');
    expect(twice).toMatch(/^https:\/\/a\.test\/x#state=\/x&token=%5Bredacted%3A[0-9a-f]{8}%5D&token=%5Bredacted%3A[0-9a-f]{8}%5D$/);
    for (const u of [twice, redactUrl('http://user:pw@h.test/?api_key=1#x=1')]) expect(redactUrl(u)).toBe(u);
  });
  it('other auth headers, and a credential value under any name; a challenge that only names its scheme stays', () => {
    const h = redactHeaders({
      Authentication: 'Bearer a1',
      DPoP: 'eyJ.x.y',
      'X-Goog-IAP-JWT-Assertion': 'j1',
      'X-JWT': 'j2',
      'X-Bearer': 'b1',
      'X-Vercel-Protection-Bypass': 'v1',
      'X-Upstream': 'Bearer u1',
      'X-Forward-Basic': 'Basic dTpw',
      'WWW-Authenticate': 'Bearer resource_metadata="http://h.test/.well-known/oauth-protected-resource"',
      'Content-Type': 'application/json',
    });
    for (const n of ['authentication', 'dpop', 'x-goog-iap-jwt-assertion', 'x-jwt', 'x-bearer', 'x-vercel-protection-bypass', 'x-upstream', 'x-forward-basic']) {
      expect(h[n], n).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    }
    expect(h['www-authenticate']).toContain('resource_metadata=');
    expect(h['content-type']).toBe('application/json');
  });
  it('keys by other names: Azure subscription and function keys, app and private keys, a bare pass', () => {
    const h = redactHeaders({ 'Ocp-Apim-Subscription-Key': 'A1', 'X-Functions-Key': 'F1', 'X-Access-Key': 'K1', 'Idempotency-Key': 'i1', 'Sec-WebSocket-Key': 'w1' });
    for (const n of ['ocp-apim-subscription-key', 'x-functions-key', 'x-access-key']) expect(h[n], n).toMatch(/^\[redacted:/);
    expect(h['idempotency-key']).toBe('i1');
    expect(h['sec-websocket-key']).toBe('w1');
    const u = redactUrl('/x?pass=P1&app_key=P2&private_key=P3&client_key=P4&passage=ok&keyword=ok');
    for (const s of ['P1', 'P2', 'P3', 'P4']) expect(u).not.toContain(`=${s}`);
    expect(u).toMatch(/&passage=ok&keyword=ok$/);
  });
  it('redacts the URLs quoted in free text, and credential-like WebSocket subprotocols', () => {
    const msg = "Failed to execute 'fetch' on 'Window': Request cannot be constructed from a URL that includes credentials: http://user:SECRETPW@127.0.0.1:9/mcp?token=T2";
    const r = redactUrlsIn(msg);
    expect(r).not.toMatch(/SECRETPW|T2/);
    expect(r).toMatch(/^Failed to execute 'fetch' on 'Window': Request cannot be constructed from a URL that includes credentials: http:\/\/%5Bredacted%3A[0-9a-f]{8}%5D@127\.0\.0\.1:9\/mcp\?token=%5Bredacted/);
    expect(redactUrlsIn(r)).toBe(r);
    expect(redactUrlsIn('NetworkError when attempting to fetch resource.')).toBe('NetworkError when attempting to fetch resource.');
    // Sentence punctuation stays outside the URL (the hash is of the value alone, as in the request URL).
    expect(redactUrlsIn('(see https://h/x?token=abc), and')).toBe(`(see https://h/x?token=${encodeURIComponent(redactValue('abc'))}), and`);
    // Linear on long runs of scheme-like characters (a page can set an abort reason).
    const long = 'a.'.repeat(50_000) + ' ://';
    const t0 = performance.now();
    expect(redactUrlsIn(long)).toBe(long);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(redactSubprotocol('mcp')).toBe('mcp');
    for (const plain of ['monkey', 'authz', 'mcp-key-rotation']) expect(redactSubprotocol(plain)).toBe(plain);
    expect(redactSubprotocol('base64url.bearer.authorization.k8s.io.ZXlKaGJHY2lP')).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(redactSubprotocol(redactSubprotocol('token.abc'))).toBe(redactSubprotocol('token.abc'));
  });
  it('never throws on odd URLs', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof redactUrl(s) === 'string'));
  });
});

describe('payload cap', () => {
  it('keeps small bodies whole', () => {
    expect(makePayload('hello')).toEqual({ text: 'hello' });
  });
  it('caps large bodies to a prefix with full size and full hash', () => {
    const text = 'é'.repeat(DEFAULT_BODY_CAP_BYTES);
    const p = makePayload(text);
    expect(utf8Length(p.text)).toBeLessThanOrEqual(DEFAULT_BODY_CAP_BYTES);
    expect(p.truncated).toEqual({ bytes: 2 * DEFAULT_BODY_CAP_BYTES, hash: hashText(text) });
    expect(payloadHash(p)).toBe(hashText(text));
    expect(text.startsWith(p.text)).toBe(true);
  });
  it('measures UTF-8 like TextEncoder', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => utf8Length(s) === new TextEncoder().encode(s).length));
  });
  it('counts a lone surrogate as TextEncoder does (U+FFFD, 3 bytes), also before another character', () => {
    // Any UTF-16 units, lone surrogates included (a page can send them; TextEncoder writes U+FFFD for each).
    const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) });
    fc.assert(fc.property(units, (s) => utf8Length(s) === new TextEncoder().encode(s).length));
    expect(utf8Length('\uD800é')).toBe(5);
    const text = '\uD800€'.repeat(10);
    const p = makePayload(text, 16);
    expect(p.truncated?.bytes).toBe(60);
    expect(utf8Length(p.text)).toBeLessThanOrEqual(16);
    expect(p.text).toBe('\uD800€\uD800€\uD800');
  });
});

describe('subscription sets are kept whole', () => {
  const uris = Array.from({ length: 8000 }, (_, i) => `file:///kb/articles/article-${i}.md`);
  const listen = JSON.stringify({ jsonrpc: '2.0', id: 'listen:1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris } } });
  const ack = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: uris } } });

  it('a listen request and its acknowledgement over the cap are not cut (the engine needs the whole set), also on a re-cap', () => {
    expect(utf8Length(listen)).toBeGreaterThan(DEFAULT_BODY_CAP_BYTES);
    expect(makePayload(listen)).toEqual({ text: listen });
    expect(makePayload(ack)).toEqual({ text: ack });
    expect(recapPayload({ text: listen }, 64 * 1024)).toEqual({ text: listen });
    // A server that escapes its slashes (PHP's json_encode) sends the same method.
    const escaped = ack.replace('"notifications/subscriptions/acknowledged"', '"notifications\\/subscriptions\\/acknowledged"');
    expect(makePayload(escaped)).toEqual({ text: escaped });
  });

  it('other bodies, one that only quotes the method, and a set past its own limit are cut', () => {
    const quoted = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'x', text: listen }] } });
    expect(makePayload(quoted).truncated).toBeDefined();
    // A listen message nested in another message's result is not that message's method.
    const nested = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { structuredContent: JSON.parse(listen) } });
    expect(makePayload(nested).truncated).toBeDefined();
    expect(makePayload('x'.repeat(DEFAULT_BODY_CAP_BYTES + 1)).truncated).toBeDefined();
    const huge = listen.slice(0, -4) + ',"' + 'y'.repeat(SUBSCRIPTION_SET_CAP_BYTES) + '"]}}}';
    expect(makePayload(huge).truncated?.bytes).toBe(utf8Length(huge));
  });
});

describe('streamed payloads', () => {
  it('PayloadBuilder gives exactly what makePayload gives for the whole text, whatever the pieces', async () => {
    const { PayloadBuilder } = await import('../../../shared/payload.ts');
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 40 }), fc.integer({ min: 16, max: 2000 }), (pieces, cap) => {
        const b = new PayloadBuilder(cap);
        for (const p of pieces) b.add(p);
        expect(b.build()).toEqual(makePayload(pieces.join(''), cap));
      }),
    );
  });
});

describe('recapPayload', () => {
  it('gives what makePayload gives for the full text at the smaller cap, also from an already cut payload', () => {
    const full = `${'é'.repeat(50_000)}${'x'.repeat(400_000)}`;
    // Caps between a third of the old cap and the old cap too: a mostly non-ASCII prefix is shorter than the cap.
    const accents = 'é'.repeat(400_000);
    for (const cap of [100_000, 200_000]) expect(recapPayload(makePayload(accents, 262_144), cap)).toEqual(makePayload(accents, cap));
    expect(makePayload(accents, 200_000).text).toHaveLength(100_000);
    expect(makePayload('😀'.repeat(10), 10).text).toBe('😀😀');
    for (const cap of [4096, 10_000, 65_536]) {
      expect(recapPayload(makePayload(full, 262_144), cap)).toEqual(makePayload(full, cap));
      expect(recapPayload(makePayload(full, 2 * 1024 * 1024), cap)).toEqual(makePayload(full, cap));
    }
    const small = makePayload('{"jsonrpc":"2.0"}', 4096);
    expect(recapPayload(small, 4096)).toBe(small);
    // A larger cap cannot bring back what was cut.
    const cut = makePayload(full, 4096);
    expect(recapPayload(cut, 262_144)).toBe(cut);
  });
});
