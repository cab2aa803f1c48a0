// The names the panel shows for a session or a listen, in one place: the Sessions grid, the timeline's lanes and the
// drawer show sessionLabel; `session:` matches sessionNames, the same everywhere.
import type { SessionView } from '../../shared/engine/index.ts';

/** What a session is named by: its id, its kind, and whether (and as what key) a reloaded page resumed it. */
export type Named = Pick<SessionView, 'label' | 'kind'> & Partial<Pick<SessionView, 'key' | 'resumedFrom'>>;

/**
 * What the views show for a session: the session id; for a listen, `listen <request id>`. A session a reloaded page
 * resumed has its earlier session's id: `S1 (resumed #2)` (its key is `S1 #2`) tells the two apart.
 */
export function sessionLabel(s: Named): string {
  if (s.kind === 'listen') return `listen ${s.label}`;
  if (s.resumedFrom === undefined) return s.label;
  const n = s.key !== undefined && s.key.startsWith(`${s.label} #`) ? s.key.slice(s.label.length + 1) : '';
  return `${s.label} (resumed${n ? ` ${n}` : ''})`;
}

/**
 * What `session:` looks at on a session or a listen (a Sessions row, a session lane): the names the panel shows for
 * it — the session id, the listen's request id, and its label as its row and lane say (`listen <id>`, `S1 (resumed
 * #2)`) — the ids the URI table and Findings match (a URI's holders, a finding's session). Never its internal key: a
 * listen's holds its page and endpoint, so `session:localhost` showed every listen and no session, and
 * `-session:mcp` hid every listen.
 */
export function sessionNames(s: Named): string[] {
  const shown = sessionLabel(s);
  return shown === s.label ? [s.label] : [s.label, shown];
}
