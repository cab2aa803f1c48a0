// Trace format v1: types, export, import with precise errors. The JSON schema is trace.schema.json. Re-exports only.
export * from './format.ts';
export { exportTrace, extraTopLevel, serializeTrace, TOOL, traceTextSteps, type ExportInput } from './export.ts';
export { notATraceHint, parseIsoTime, parseTrace, traceJsonText, validateTrace, validateTraceSteps, type TraceResult } from './import.ts';
export { jsonErrorOffset, jsonSyntaxError } from './json-error.ts';
export { decodeUtf8, firstInvalidUtf8, notUtf8Problem } from './utf8.ts';
