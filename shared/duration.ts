// Durations as the panel and the findings say them (one formatting: a URI row's tooltip said "expected at most 3.0 s
// (rule)" while the Findings Detail column said "expected at most 3000 ms (rule)", a live review 2026-12).

/** 850 ms · 12.4 s · 3 min 04 s · 2 h 05 min · 3 d 4 h */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  // Rounded first, so a unit's edge reads in the next unit (999.6 ms is "1.0 s", 9,960 ms is "10 s") and -0.3 is "0 ms".
  const whole = Math.round(ms);
  const neg = whole < 0 ? '-' : '';
  const a = Math.abs(whole);
  if (a < 1000) return `${neg}${a} ms`;
  if (a < 9950) return `${neg}${(a / 1000).toFixed(1)} s`;
  const s = Math.round(a / 1000);
  if (s < 60) return `${neg}${s} s`;
  if (s < 3600) return `${neg}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.floor(s / 60);
  if (m < 1440) return `${neg}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
  const h = Math.floor(m / 60);
  return `${neg}${Math.floor(h / 24)} d ${h % 24} h`;
}
