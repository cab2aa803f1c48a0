// Formatting for the demo page: ages, clock times, ratios.
export function age(ms: number | undefined): string {
  if (ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function clock(t: number | string | undefined): string {
  if (t === undefined || t === '') return '–';
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toLocaleTimeString(undefined, { hour12: false });
}

export function percent(r: number | undefined): string {
  return r === undefined ? '–' : `${Math.round(r * 100)} %`;
}

export function shortUri(uri: string): string {
  return uri.replace(/^file:\/\/\/docs\//, 'docs/').replace(/^postgres:\/\/kb\//, 'kb/') || uri;
}
