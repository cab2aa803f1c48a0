// The seed's flow chart as data and the per-URI walk along it. Re-exports only.
export * from './chart.ts';
export * from './flow-tracker.ts';
