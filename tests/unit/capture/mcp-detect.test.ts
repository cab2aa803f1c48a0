import { describe, expect, it } from 'vitest';
import { classifyRequest, endpointKey, isJsonRpcText, isMcpSseEvent, isReadableMcpContentType } from '../../../shared/mcp-detect.ts';

describe('isJsonRpcText', () => {
  it('accepts single messages and non-empty batches', () => {
    expect(isJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"initialize"}')).toBe(true);
    expect(isJsonRpcText(' [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"x"}]')).toBe(true);
  });
  it('rejects other JSON and text', () => {
    expect(isJsonRpcText('{"hello":"world"}')).toBe(false);
    expect(isJsonRpcText('[]')).toBe(false);
    expect(isJsonRpcText('[{"jsonrpc":"2.0"},{"x":1}]')).toBe(false);
    expect(isJsonRpcText('{"jsonrpc":"1.0","id":1}')).toBe(false);
    expect(isJsonRpcText('jsonrpc 2.0')).toBe(false);
    expect(isJsonRpcText('')).toBe(false);
  });
  it('keeps malformed JSON-RPC visible: a broken body that starts like JSON-RPC counts', () => {
    expect(isJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"resources/re')).toBe(true);
    expect(isJsonRpcText('{"id":1, "broken')).toBe(false);
  });
  it('decides big bodies by their prefix without parsing them', () => {
    const big = `{"jsonrpc":"2.0","id":1,"result":{"text":"${'x'.repeat(200_000)}"}}`;
    expect(isJsonRpcText(big)).toBe(true);
    expect(isJsonRpcText(`{"data":"${'x'.repeat(200_000)}","jsonrpc":"2.0"}`)).toBe(false);
  });
});

describe('classifyRequest', () => {
  const base = { method: 'POST', headers: {}, knownEndpoint: false };
  it('captures JSON-RPC bodies, MCP headers and known endpoints', () => {
    expect(classifyRequest({ ...base, bodyText: '{"jsonrpc":"2.0","method":"ping","id":1}' })).toBe('mcp');
    expect(classifyRequest({ ...base, method: 'DELETE', headers: { 'mcp-session-id': 'abc' } })).toBe('mcp');
    expect(classifyRequest({ ...base, method: 'POST', headers: { 'mcp-method': 'tools/call' } })).toBe('mcp');
    expect(classifyRequest({ ...base, method: 'GET', knownEndpoint: true })).toBe('mcp');
  });
  it('treats an unknown SSE GET as a candidate and leaves everything else alone', () => {
    expect(classifyRequest({ ...base, method: 'GET', headers: { accept: 'text/event-stream' } })).toBe('candidate');
    expect(classifyRequest({ ...base, method: 'GET', headers: { accept: 'text/html' } })).toBe('no');
    expect(classifyRequest({ ...base, bodyText: 'a=1&b=2' })).toBe('no');
    expect(classifyRequest({ ...base, bodyText: '{"query":"{ me }"}' })).toBe('no');
  });
});

describe('SSE and content types', () => {
  it('recognises the legacy endpoint event and JSON-RPC data', () => {
    expect(isMcpSseEvent('endpoint', '/message?sessionId=1')).toBe(true);
    expect(isMcpSseEvent(undefined, '{"jsonrpc":"2.0","method":"notifications/message"}')).toBe(true);
    expect(isMcpSseEvent('message', 'tick')).toBe(false);
  });
  it('classifies response content types', () => {
    expect(isReadableMcpContentType('text/event-stream; charset=utf-8')).toBe('sse');
    expect(isReadableMcpContentType('application/json')).toBe('json');
    expect(isReadableMcpContentType(undefined)).toBe('json');
    expect(isReadableMcpContentType('image/png')).toBe('other');
  });
  it('keys endpoints by origin and path', () => {
    expect(endpointKey('http://a.test:3000/mcp?x=1#y')).toBe('http://a.test:3000/mcp');
    expect(endpointKey('/message?sessionId=2', 'http://a.test/sse')).toBe('http://a.test/message');
    expect(endpointKey('http://[bad')).toBeUndefined();
  });
});
