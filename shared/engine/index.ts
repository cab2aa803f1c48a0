// The reconstruction engine: frames in, per-URI client/server state, findings, flow and metrics out. Re-exports only.
export { Engine, type ReplayLimit } from './engine.ts';
export * from './types.ts';
export { messageAt, messagesSlice, type MessageList } from './message-list.ts';
export { globToRegExp, expectedFreshness } from './freshness.ts';
export type { Finding, FindingId, Severity, CoverageReason } from '../findings/types.ts';
export { findingRowKey, followsUriAcrossSessions } from '../findings/finding-log.ts';
export type { Metrics } from '../metrics.ts';
export { decodedJson } from '../decode/decoded-json.ts';
