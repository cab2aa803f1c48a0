// Panel-local preferences (preserve log, last view, pane sizes) in localStorage: they belong to this devtools
// profile, not to the capture, so they do not travel through the background's settings.
const PREFIX = 'mcp-devtools.';

export function readPref<T>(name: string, fallback: T): T {
  try {
    const raw = globalThis.localStorage?.getItem(PREFIX + name);
    return raw === null || raw === undefined ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writePref(name: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(PREFIX + name, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference just does not persist.
  }
}
