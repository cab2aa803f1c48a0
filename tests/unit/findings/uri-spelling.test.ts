// A URI subscribed under one spelling and read under another: the finding says so (the engine itself keeps URIs as
// exact strings, as servers match them).
import { describe, expect, it } from 'vitest';
import { uriSpellingKey } from '../../../shared/findings/uri-spelling.ts';
import { findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

describe('uriSpellingKey', () => {
  it('equates case of scheme and host, unreserved escapes, hex case and default ports — nothing else', () => {
    const same = (a: string, b: string) => uriSpellingKey(a) === uriSpellingKey(b);
    expect(same('HTTP://Example.COM/docs/a%7Eb', 'http://example.com/docs/a~b')).toBe(true);
    expect(same('http://example.com:80/x', 'http://example.com/x')).toBe(true);
    expect(same('https://example.com:443', 'https://example.com/')).toBe(true);
    expect(same('file:///docs/a%2fb', 'file:///docs/a%2Fb')).toBe(true);
    expect(same('file:///docs/A.md', 'file:///docs/a.md')).toBe(false);
    expect(same('file:///docs/a%2Fb', 'file:///docs/a/b')).toBe(false);
    expect(same('postgres://kb/articles/1', 'postgres://KB/articles/1')).toBe(true);
    expect(same('http://example.com:8080/x', 'http://example.com/x')).toBe(false);
  });
});

describe('cached-not-subscribed under another spelling', () => {
  it('names the spelling that was subscribed', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.subscribe('HTTP://Example.com/docs/a%7Eb');
    c.read('http://example.com/docs/a~b', 'v1');
    log.wait(100);
    const f = findingsAfter(run(log), 5000).find((x) => x.id === 'cached-not-subscribed')!;
    expect(f).toMatchObject({ uri: 'http://example.com/docs/a~b', reason: 'never-subscribed' });
    expect(f.detail).toBe('subscribed as HTTP://Example.com/docs/a%7Eb, a different spelling of this URI: servers match URIs exactly, so updates for this one never come');
  });
});
