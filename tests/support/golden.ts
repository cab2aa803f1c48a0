// Golden comparison for recorded traces: what of an analysis is stable enough to pin (findings by id/uri/reason/
// severity/open, URI rows' five booleans and status, sessions' ends), leaving out times and seqs that differ between
// recordings of the same scenario.
import { Engine, type EngineOptions } from '../../shared/engine/index.ts';
import type { TraceFileV1 } from '../../shared/trace/index.ts';

export interface GoldenExpectation {
  /** Free text: what the recording shows. */
  description?: string;
  /** Evaluation time (ISO); default: as the CLI does, the export time. */
  now?: string;
  options?: EngineOptions;
  findings: { id: string; uri?: string; reason?: string; severity: string; open: boolean }[];
  uris: { uri: string; cached: boolean; clientBelievesSubscribed: boolean; serverHasSubscription: boolean; deliveryChannelOpen: boolean; status: string }[];
  sessions: { label: string; kind: string; open: boolean; endCause?: string }[];
}

export function goldenOf(trace: TraceFileV1, expected?: Pick<GoldenExpectation, 'now' | 'options' | 'description'>): GoldenExpectation {
  const engine = Engine.replay(trace.frames, expected?.options ?? {});
  const exported = Date.parse(trace.createdAt);
  const now = expected?.now !== undefined ? Date.parse(expected.now) : Math.max(engine.lastT ?? exported, exported);
  const s = engine.snapshot(now);
  const out: GoldenExpectation = {
    findings: s.findings
      .map((f) => {
        const x: GoldenExpectation['findings'][number] = { id: f.id, severity: f.severity, open: f.open };
        if (f.uri !== undefined) x.uri = f.uri;
        if (f.reason !== undefined) x.reason = f.reason;
        return x;
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    uris: s.uris
      .map((u) => ({
        uri: u.uri,
        cached: u.cached,
        clientBelievesSubscribed: u.clientBelievesSubscribed,
        serverHasSubscription: u.serverHasSubscription,
        deliveryChannelOpen: u.deliveryChannelOpen,
        status: u.status,
      }))
      .sort((a, b) => a.uri.localeCompare(b.uri)),
    sessions: s.sessions.map((x) => (x.endCause ? { label: x.label, kind: x.kind, open: x.open, endCause: x.endCause } : { label: x.label, kind: x.kind, open: x.open })),
  };
  if (expected?.description !== undefined) out.description = expected.description;
  if (expected?.now !== undefined) out.now = expected.now;
  if (expected?.options !== undefined) out.options = expected.options;
  return out;
}
