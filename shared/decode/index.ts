// Decoding: frames → MCP messages with transport context. Re-exports only.
export * from './types.ts';
export { Decoder } from './decoder.ts';
export { decodedJson } from './decoded-json.ts';
export { classifyEnvelope, parsePayload, idKey } from './jsonrpc.ts';
export * from './protocol.ts';
export { endpointOf, queryParam, resolveAgainst } from './url-parts.ts';
