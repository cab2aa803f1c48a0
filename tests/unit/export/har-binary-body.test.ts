// A binary request body is opaque with its true size and hash (review-b #10: HAR request.bodySize said 6 for the 4
// bytes of Blob([1,2,3,255]), the UTF-8 size of its lossy decoding).
import { expect, it } from 'vitest';
import { buildHar } from '../../../shared/har.ts';
import { FrameLog } from '../../support/frame-log.ts';

it('gives request.bodySize the true byte count of an opaque body that carries it, -1 for one that does not', () => {
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/');
  const conn = log.newConn('fetch');
  log.emit({ kind: 'http-request', conn, method: 'POST', url: 'http://localhost:3000/mcp', headers: {}, body: { text: '[binary body, 4 bytes]', opaque: true, truncated: { bytes: 4, hash: '00c0ffee00c0ff' } } });
  log.httpResponse(conn, 400, 'http://localhost:3000/mcp', {});
  log.httpBody(conn, 'bad');
  log.httpEnd(conn);
  const old = log.newConn('fetch');
  log.emit({ kind: 'http-request', conn: old, method: 'POST', url: 'http://localhost:3000/mcp', headers: {}, body: { text: '[FormData body]', opaque: true } });
  log.httpEnd(old, 'failed', 'request');
  const [bin, desc] = buildHar(log.frames).log.entries;
  expect(bin!.request.bodySize).toBe(4);
  expect(bin!.request.postData).toMatchObject({ text: '[binary body, 4 bytes]', comment: 'not text at capture; text is a description (4 bytes, hash 00c0ffee00c0ff of its bytes)' });
  expect(desc!.request.bodySize).toBe(-1);
  expect(desc!.request.postData!.comment).toBe('not text at capture; text is a description');
});
