// The demo page server: static files of the bundle only, loopback Host only, and a bad request is answered (a 4xx),
// never a crash of `npm start`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageServer, type PageServer } from '../../../demo/page-server.ts';

let dir: string;
let server: PageServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-server-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>kb</title>');
  server = await createPageServer({ dir, serverUrl: 'http://127.0.0.1:1/mcp' });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request (fetch normalizes paths and cannot set Host). */
function get(path: string, host = `127.0.0.1:${server.port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('demo page server', () => {
  it('serves the bundle and the config', async () => {
    expect(await get('/')).toMatchObject({ status: 200, body: expect.stringContaining('<title>kb</title>') });
    expect(JSON.parse((await get('/config.json')).body)).toEqual({ serverUrl: 'http://127.0.0.1:1/mcp' });
  });

  it('answers a malformed percent-encoding with 400 and keeps serving', async () => {
    expect(await get('/%E0%A4%A')).toMatchObject({ status: 400, body: expect.stringContaining('bad path') });
    expect((await get('/')).status).toBe(200);
  });

  it('answers a request target that is no URL (`//[`, `http://[`) with 400 and keeps serving', async () => {
    expect(await get('//[')).toMatchObject({ status: 400, body: 'bad request target' });
    expect(await get('http://[')).toMatchObject({ status: 400, body: 'bad request target' });
    expect((await get('/')).status).toBe(200);
  });

  it('refuses paths outside the bundle and foreign Host headers', async () => {
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).toBe(403);
    expect(await get('/', 'evil.example')).toMatchObject({ status: 403, body: 'loopback Host only' });
    expect((await get('/missing.js')).status).toBe(404);
  });
});
