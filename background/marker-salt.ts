// The salt the background keys its redaction markers with (the user's extra secret headers: shared/redact.ts). Kept in
// the extension's database, so a worker restart in the middle of a page load does not change the marker of the same
// value; never sent to a page, never written to an export.
import { randomSalt, setMarkerSalt } from '../shared/redact.ts';
import type { LogStore } from './log-store.ts';

function isSalt(v: unknown): v is number[] {
  return Array.isArray(v) && v.length === 4 && v.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff);
}

/** Installs the stored salt (one made and stored the first time). A database that fails leaves the worker's own. */
export async function installMarkerSalt(store: LogStore): Promise<void> {
  try {
    const saved = await store.loadMarkerSalt();
    if (isSalt(saved)) return setMarkerSalt(saved);
    const salt = randomSalt();
    setMarkerSalt(salt);
    await store.saveMarkerSalt(salt);
  } catch (e) {
    console.error('mcp-devtools: the marker salt was not stored (markers may change when the worker restarts)', e);
  }
}
