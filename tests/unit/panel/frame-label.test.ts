// A finding's evidence links say what each frame is: its message's method, else what the transport did.
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/frames.ts';
import { frameLabel } from '../../../panel/model/frame-label.ts';

const base = { seq: 1, t: 0, segment: 0, frameId: 0 };

describe('frameLabel', () => {
  it('names a frame by its message: a request or notification by method, an answer with result/error, a batch by its first', () => {
    expect(frameLabel(undefined, [{ kind: 'request', method: 'resources/read' }])).toBe('resources/read');
    expect(frameLabel(undefined, [{ kind: 'notification', method: 'notifications/resources/updated' }])).toBe('notifications/resources/updated');
    expect(frameLabel(undefined, [{ kind: 'result', method: 'resources/read' }])).toBe('resources/read result');
    expect(frameLabel(undefined, [{ kind: 'error', method: undefined }])).toBe('error');
    expect(frameLabel(undefined, [{ kind: 'request', method: 'a' }, { kind: 'request', method: 'b' }, { kind: 'notification', method: 'c' }])).toBe('a +2');
  });
  it('names a transport frame by what happened; nothing for a frame not in view', () => {
    expect(frameLabel({ ...base, kind: 'http-response', conn: 'c', status: 404, headers: {} } as unknown as Frame, [])).toBe('HTTP 404');
    expect(frameLabel({ ...base, kind: 'http-request', conn: 'c', method: 'GET', url: 'u', headers: {} } as unknown as Frame, [])).toBe('HTTP GET');
    expect(frameLabel({ ...base, kind: 'ws-close', conn: 'c', code: 1006, reason: '', wasClean: false } as unknown as Frame, [])).toBe('WebSocket close 1006');
    expect(frameLabel(undefined, [])).toBe('');
  });
});
