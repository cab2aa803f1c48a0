// Findings: types, the catalogue (texts), and the log that keeps them. Re-exports only.
export * from './types.ts';
export * from './catalogue.ts';
export * from './finding-log.ts';
