// The JSON admin endpoint that flips fault switches and drives the knowledge base: GET /admin/state, POST /admin/faults,
// /admin/edit, /admin/restart, /admin/drop-streams, /admin/timer, /admin/reset. Input is validated whole before anything
// changes; bad input gets 400 with an `error` sentence naming the problem.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { describeIssues, parseFaultsPatch, type Faults, type FaultsPatch } from './faults.ts';
import type { KbEntry } from './kb-store.ts';
import type { MetricsSnapshot } from './metrics.ts';
import { sendJson } from './node-web.ts';
import type { ListenRecord, SessionTransport } from './subscription-ledger.ts';

export interface AdminState {
  faults: Faults;
  editTimerMs: number;
  /** The interval the server was started with (`npm start -- --edit-interval`): a scenario's end turns the timer back to it. */
  configuredEditTimerMs: number;
  sessions: { id: string; transport: SessionTransport; protocolVersion?: string; subscribeCapability: boolean; subscriptions: string[]; channelOpen: boolean; createdAt: string }[];
  listens: (Omit<ListenRecord, 'openedAt'> & { openedAt: string })[];
  documents: Pick<KbEntry, 'uri' | 'kind' | 'title' | 'revision' | 'lastModified' | 'text'>[];
  /** URIs with a read held by the outOfOrderReads fault right now. */
  heldReads: string[];
  metrics: MetricsSnapshot;
}

/** What the admin endpoint can do; implemented by http.ts over the live server. */
export interface AdminActions {
  state(): AdminState;
  setFaults(patch: FaultsPatch): Faults;
  /** Whether `uri` can be edited (documents, articles, the schema — not the derived listing). */
  editable(uri: string): boolean;
  editableUris(): string[];
  edit(uri: string, text: string | undefined, times: number, gapMs: number): Promise<KbEntry>;
  restart(): Promise<{ sessions: number; listens: number }>;
  dropStreams(): { getStreams: number; listens: number };
  setTimer(intervalMs: number): void;
  reset(): Promise<void>;
}

export const ADMIN_ENDPOINTS = ['GET /admin/state', 'POST /admin/faults', 'POST /admin/edit', 'POST /admin/restart', 'POST /admin/drop-streams', 'POST /admin/timer', 'POST /admin/reset'];

const EditSchema = z.strictObject({
  uri: z.string().min(1),
  text: z.string().max(100_000).optional(),
  times: z.number().int().min(1).max(10).optional(),
  gapMs: z.number().int().min(0).max(5_000).optional(),
});
const TimerSchema = z.strictObject({ intervalMs: z.number().int().min(0).max(3_600_000) });
const EmptySchema = z.strictObject({});

/** A body that failed to parse as JSON (http.ts passes this instead of a value). */
export interface UnparsableBody {
  unparsable: string;
}

const isUnparsable = (b: unknown): b is UnparsableBody => typeof b === 'object' && b !== null && 'unparsable' in b && Object.keys(b).length === 1;

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, body: unknown, actions: AdminActions, cors: Record<string, string>): Promise<void> {
  const method = req.method ?? 'GET';
  const bad = (error: string) => sendJson(res, 400, { error }, cors);
  const ok = (value: unknown) => sendJson(res, 200, value, cors);
  const route = path.replace(/^\/admin\/?/, '');
  const expected = route === 'state' ? 'GET' : 'POST';
  if (!ADMIN_ENDPOINTS.some((e) => e.endsWith(`/admin/${route}`))) {
    sendJson(res, 404, { error: `unknown admin endpoint '${path}'`, endpoints: ADMIN_ENDPOINTS }, cors);
    return;
  }
  if (method !== expected) {
    sendJson(res, 405, { error: `${path} takes ${expected}, not ${method}` }, { ...cors, allow: expected });
    return;
  }
  if (isUnparsable(body)) return bad(`request body is not valid JSON: ${body.unparsable}`);
  const input = body ?? {};

  switch (route) {
    case 'state':
      return ok(actions.state());
    case 'faults': {
      const patch = parseFaultsPatch(input);
      if (!patch.ok) return bad(patch.error);
      return ok({ faults: actions.setFaults(patch.value) });
    }
    case 'edit': {
      const r = EditSchema.safeParse(input);
      if (!r.success) return bad(`${describeIssues(r.error)} (expected {uri, text?, times?, gapMs?})`);
      if (!actions.editable(r.data.uri)) {
        return bad(`'${r.data.uri}' is not an editable resource (editable: ${actions.editableUris().join(', ')})`);
      }
      const entry = await actions.edit(r.data.uri, r.data.text, r.data.times ?? 1, r.data.gapMs ?? 0);
      return ok({ uri: entry.uri, revision: entry.revision, lastModified: entry.lastModified });
    }
    case 'timer': {
      const r = TimerSchema.safeParse(input);
      if (!r.success) return bad(`${describeIssues(r.error)} (expected {intervalMs}, 0 = off)`);
      actions.setTimer(r.data.intervalMs);
      return ok({ intervalMs: r.data.intervalMs });
    }
    case 'restart':
    case 'drop-streams':
    case 'reset': {
      const r = EmptySchema.safeParse(input);
      if (!r.success) return bad(`${describeIssues(r.error)} (${path} takes no parameters)`);
      if (route === 'restart') return ok({ dropped: await actions.restart() });
      if (route === 'drop-streams') return ok({ closed: actions.dropStreams() });
      await actions.reset();
      return ok({ reset: true });
    }
  }
}
