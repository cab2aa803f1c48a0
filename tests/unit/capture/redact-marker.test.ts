// The redaction marker is a keyed fingerprint (review of 2026-12-06: an unkeyed hash let whoever held a shared trace
// or HAR brute-force a short secret from its marker — a 4-digit PIN in 12 ms). Equal markers from one realm (one page
// load for the hook) mean equal values; without the realm's salt, which no export holds, a marker says nothing.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashText } from '../../../shared/hash.ts';

type Redact = typeof import('../../../shared/redact.ts');
/** A fresh realm's redact module: a new page load (the hook) or a new worker (the background). */
async function freshRealm(): Promise<Redact> {
  vi.resetModules();
  return import('../../../shared/redact.ts');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('keyed redaction markers', () => {
  it('keep their shape, are the same for the same value within one realm, and differ for different values', async () => {
    const r = await freshRealm();
    const m = r.redactValue('Bearer abc');
    expect(m).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(r.isRedacted(m)).toBe(true);
    expect(r.redactValue('Bearer abc')).toBe(m);
    expect(r.redactHeaders({ Authorization: 'Bearer abc' }).authorization).toBe(m);
    expect(r.redactUrl('https://h/x?token=Bearer%20abc')).toBe(`https://h/x?token=${encodeURIComponent(m)}`);
    expect(r.redactValue('Bearer abd')).not.toBe(m);
  });

  it('cannot be brute-forced without the salt: the unkeyed search that found a 4-digit secret finds nothing', async () => {
    const r = await freshRealm();
    const u = r.redactUrl('http://127.0.0.1:1/mcp?password=4821');
    const marker = /redacted:([0-9a-f]{8})/.exec(decodeURIComponent(u))![1];
    expect(marker).not.toBe(hashText('4821').slice(0, 8));
    const hits: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const guess = String(i).padStart(4, '0');
      if (hashText(guess).slice(0, 8) === marker) hits.push(guess);
    }
    expect(hits).not.toContain('4821');
  });

  it('are keyed by a random salt from crypto.getRandomValues, one per realm', async () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const a = await freshRealm();
    const b = await freshRealm();
    // (Made at the first redaction: a realm that redacts nothing draws no salt.)
    expect(spy).not.toHaveBeenCalled();
    const ma = a.redactValue('4821');
    const mb = b.redactValue('4821');
    expect(spy).toHaveBeenCalledTimes(2);
    // Two page loads: the same value, unrelated markers (equal only by a 1 in 2^32 chance).
    expect(ma).not.toBe(mb);
  });

  it('with the same salt installed, give the same markers (setMarkerSalt)', async () => {
    const salt = [1, 2, 3, 0xffffffff];
    const a = await freshRealm();
    a.setMarkerSalt(salt);
    const b = await freshRealm();
    b.setMarkerSalt(salt);
    expect(a.redactValue('TENANT')).toBe(b.redactValue('TENANT'));
    b.setMarkerSalt([1, 2, 3, 4]);
    expect(a.redactValue('TENANT')).not.toBe(b.redactValue('TENANT'));
  });

  it('the background keeps its salt in its database: a worker restart keeps the markers of its extra headers', async () => {
    const worker = async (db: string) => {
      vi.resetModules();
      const { LogStore } = await import('../../../background/log-store.ts');
      const { installMarkerSalt } = await import('../../../background/marker-salt.ts');
      const { redactHeaderMap } = await import('../../../shared/redact-frame.ts');
      await installMarkerSalt(new LogStore(db));
      return redactHeaderMap({ 'x-tenant': 'TENANT' }, ['x-tenant'])['x-tenant'];
    };
    const first = await worker('marker-salt-test-1');
    expect(first).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(await worker('marker-salt-test-1')).toBe(first);
    // Another profile (another database): another salt.
    expect(await worker('marker-salt-test-2')).not.toBe(first);
  });

  it('old traces\' unkeyed markers are still recognized as redacted (left as they are by a re-export)', async () => {
    const r = await freshRealm();
    const old = r.unkeyedMarker('Bearer abc');
    expect(old).toBe(`[redacted:${hashText('Bearer abc').slice(0, 8)}]`);
    expect(r.isRedacted(old)).toBe(true);
    expect(r.redactHeaders({ authorization: old }).authorization).toBe(old);
  });
});
