// What the toolbar's export and import do: build the trace file (shared/trace) or the HAR (shared/har.ts) of the
// frames in view and hand it to the browser as a download; read a picked or dropped file, validate it, and either
// show it or say precisely what is wrong — leaving the current view untouched.
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { buildHarSteps, harJsonSteps } from '../shared/har.ts';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';
import { TOOL, decodeUtf8, extraTopLevel, jsonSyntaxError, notATraceHint, traceJsonText, traceTextSteps, validateTraceSteps } from '../shared/trace/index.ts';
import { isTraffic, type Frame } from '../shared/frames.ts';
import type { TraceFileV1 } from '../shared/trace/index.ts';
import type { PanelStore } from './store.ts';
import { nextTask } from './next-task.ts';

/**
 * The top-level page URL of the frames in view (the latest top-level page-start); else that of the latest document
 * that spoke (an MCP iframe of a page that never did), or ''. (Clear keeps no page-start.)
 */
export function pageUrlOf(store: PanelStore): string {
  if (store.imported) return store.imported.trace.page.url;
  const frames = store.shownFrames();
  let frameUrl = '';
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i]!;
    if (f.kind !== 'page-start') continue;
    if (f.top) return f.url;
    frameUrl ||= f.url;
  }
  return frameUrl;
}

function stamp(t: number): string {
  const d = new Date(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export function exportFileName(pageUrl: string, t: number, ext: 'json' | 'har'): string {
  let host = 'page';
  try {
    host = new URL(pageUrl).host.replace(/[^a-zA-Z0-9.-]/g, '_') || 'page';
  } catch {
    // keep "page"
  }
  return `mcp-${ext === 'har' ? 'traffic' : 'trace'}-${host}-${stamp(t)}.${ext}`;
}

/** A piece of an export's text as it is made, and how far the export got (0–1). */
export interface ExportStep {
  parts: string[];
  progress: number;
}

/** `now` is the trace's createdAt: the view's clock (paused: the pause), so timed findings come back as they were shown. */
export function traceText(store: PanelStore, now = store.clock()): string {
  return joinSteps(traceSteps(store, store.shownFrames(), now));
}

function* traceSteps(store: PanelStore, frames: readonly Frame[], now: number): Generator<ExportStep, void, void> {
  const settings = store.settings.value ?? DEFAULT_SETTINGS;
  const imported = store.imported?.trace;
  const steps = traceTextSteps({
    frames,
    createdAt: imported ? imported.createdAt : now,
    pageUrl: pageUrlOf(store),
    ...(imported?.page.title !== undefined ? { pageTitle: imported.page.title } : {}),
    tool: TOOL,
    // Redacted again on the way out (values already redacted stay): an imported trace's secrets too.
    redaction: imported ? { ...imported.redaction, enabled: true } : { enabled: true, bodyCapBytes: settings.capture.bodyCapBytes },
    extraSecretHeaders: settings.capture.extraSecretHeaders,
    dropped: droppedOf(store, frames),
    // The settings the view was analysed with: a reader (the CLI, an import) finds what this view showed.
    analysis: store.analysisInEffect(),
    // What a newer writer added at the top level is kept, as docs/trace-format.md promises (a frame's extras are
    // kept with the frame).
    ...(imported ? { extra: extraTopLevel(imported) } : {}),
  });
  for (const s of steps) yield { parts: s.parts, progress: frames.length ? s.frames / frames.length : 1 };
}

/**
 * `now` is the export instant, as for the trace: an exchange still open (a GET or listen stream) runs to it in the HAR.
 * By default the view's clock: the pause instant while paused; for an imported trace its import clock (its createdAt,
 * never before its last frame), as the store judges it. A `now` passed is used (it was ignored for an import).
 */
export function harText(store: PanelStore, now = store.clock()): string {
  return joinSteps(harSteps(store, store.shownFrames(), now));
}

/** The HAR's text in steps: built (half the way), then written an entry at a time (harJsonSteps). */
function* harSteps(store: PanelStore, frames: readonly Frame[], now: number): Generator<ExportStep, void, void> {
  const settings = store.settings.value ?? DEFAULT_SETTINGS;
  const build = buildHarSteps(frames, { creatorVersion: TOOL.version, extraSecretHeaders: settings.capture.extraSecretHeaders, dropped: droppedOf(store, frames), hiddenSeqs: store.hiddenSeqs(), now });
  let r = build.next();
  for (; !r.done; r = build.next()) yield { parts: [], progress: r.value / 2 };
  const har = r.value;
  const n = har.log.entries.length;
  for (const s of harJsonSteps(har)) yield { parts: s.parts, progress: 0.5 + (n ? s.entries / n : 1) / 2 };
}

function joinSteps(steps: Iterable<ExportStep>): string {
  let text = '';
  for (const s of steps) for (const p of s.parts) text += p;
  return text;
}

/** What the log lost before this view: the imported trace's count, or the tab's less what the export holds anyway. */
function droppedOf(store: PanelStore, frames: readonly Frame[]): { frames: number; rejected?: number } {
  return store.imported ? store.imported.trace.dropped : store.droppedLacking(frames);
}

/** Hands the file to the browser as a download. */
function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * An export under way (its notice: what, of how many frames, how far), or one just cancelled (a short note that
 * nothing was downloaded); null otherwise.
 */
export type ExportNotice = { state: 'running'; what: 'trace' | 'HAR'; frames: number } | { state: 'cancelled'; what: 'trace' | 'HAR' };

/**
 * A large export is made in slices with the event loop in between (a 200,000-frame HAR froze the panel for 5 s in one
 * piece: a review, 2026-12-06): the first runs up to `unslicedMs` (a small export is done by then, with no notice),
 * the others `sliceMs` each, so the panel keeps painting and its notice's Cancel is heard. Tests shorten them.
 */
export const EXPORT_SLICING = { unslicedMs: 50, sliceMs: 12 };
/** An export's text becomes bytes (a Blob) about this many characters at a time. */
const BLOB_CHARS = 256 * 1024;
/** How long the "Export cancelled" note stays. */
const CANCELLED_NOTE_MS = 4000;

interface ExportJob {
  notice: Signal<ExportNotice | null>;
  /** How far the running export got (0–1): apart from `notice`, so only the notice redraws as it moves. */
  progress: Signal<number>;
  running: { cancelled: boolean } | null;
  /** Why the last export failed, shown until dismissed or the next export starts. */
  error: Signal<string | null>;
  noteTimer: ReturnType<typeof setTimeout> | undefined;
}

const jobs = new WeakMap<PanelStore, ExportJob>();

function jobOf(store: PanelStore): ExportJob {
  let job = jobs.get(store);
  if (!job) jobs.set(store, (job = { notice: signal(null), progress: signal(0), running: null, error: signal(null), noteTimer: undefined }));
  return job;
}

/** The store's export notice (App shows it; Export is disabled while one runs). */
export function exportNotice(store: PanelStore): ReadonlySignal<ExportNotice | null> {
  return jobOf(store).notice;
}

/** How far the running export got (0–1). */
export function exportProgress(store: PanelStore): ReadonlySignal<number> {
  return jobOf(store).progress;
}

/**
 * Exports the view as a trace file or a HAR and downloads it: in one go when small, else in slices behind a notice
 * with progress and Cancel (`exportNotice`). Refused, with the reason, while another export runs. Resolves once it is
 * downloaded (true) or cancelled or failed (false). An error while the export is made ends it: nothing is downloaded,
 * `exportError` says what went wrong, and Export can be used again.
 */
export function exportFile(store: PanelStore, kind: 'trace' | 'har'): { ok: true; done: Promise<boolean> } | { ok: false; reason: string } {
  const job = jobOf(store);
  const what = kind === 'har' ? 'HAR' : 'trace';
  if (job.running) {
    const notice = job.notice.value;
    return { ok: false, reason: `An export of the ${notice?.what ?? what} is under way: wait for it, or cancel it` };
  }
  const now = store.clock();
  const frames = store.shownFrames();
  const name = exportFileName(pageUrlOf(store), Date.now(), kind === 'har' ? 'har' : 'json');
  const steps = kind === 'har' ? harSteps(store, frames, now) : traceSteps(store, frames, now);
  return runExport(store, what, frames.length, name, steps);
}

/**
 * Runs an export's steps (exportFile; tests pass their own) and downloads the text they make. An error thrown by a
 * step, in the first slice or a later one, ends the job: no notice, nothing downloaded, `exportError` set, and the
 * returned `done` resolves false (it never rejects).
 */
export function runExport(
  store: PanelStore,
  what: 'trace' | 'HAR',
  frames: number,
  name: string,
  steps: Iterator<ExportStep, void, void>,
): { ok: true; done: Promise<boolean> } | { ok: false; reason: string } {
  const job = jobOf(store);
  if (job.running) {
    const notice = job.notice.value;
    return { ok: false, reason: `An export of the ${notice?.what ?? what} is under way: wait for it, or cancel it` };
  }
  const run = { cancelled: false };
  job.running = run;
  job.error.value = null;
  clearTimeout(job.noteTimer);
  if (job.notice.value?.state === 'cancelled') job.notice.value = null;
  const blobs: Blob[] = [];
  let progress = 0;
  /** Runs the steps for `ms`; each slice's text becomes a Blob (never one string of the whole file). True when done. */
  const slice = (ms: number): boolean => {
    const end = performance.now() + ms;
    let parts: string[] = [];
    let chars = 0;
    let done = false;
    for (;;) {
      const r = steps.next();
      if (r.done) {
        done = true;
        break;
      }
      for (const p of r.value.parts) {
        parts.push(p);
        chars += p.length;
      }
      progress = r.value.progress;
      // Turned into bytes as it goes (a Blob's share of the work is larger than the text's), within the slice.
      if (chars >= BLOB_CHARS) {
        blobs.push(new Blob([parts.join('')]));
        parts = [];
        chars = 0;
      }
      if (performance.now() >= end) break;
    }
    if (parts.length) blobs.push(new Blob([parts.join('')]));
    return done;
  };
  const finish = (): true => {
    job.running = null;
    job.notice.value = null;
    downloadBlob(name, new Blob(blobs, { type: 'application/json' }));
    return true;
  };
  /** The export broke: it ends (Export usable again) and says why; what was made so far is dropped. */
  const fail = (e: unknown): false => {
    console.error(`The ${what} export failed:`, e);
    if (job.running === run) {
      job.running = null;
      job.notice.value = null;
    }
    blobs.length = 0;
    const why = e instanceof Error ? e.message : String(e);
    job.error.value = `The ${what} export failed (${why}): nothing was downloaded. The view is unchanged; Export can be tried again.`;
    return false;
  };
  let first: boolean;
  try {
    first = slice(EXPORT_SLICING.unslicedMs);
  } catch (e) {
    fail(e);
    return { ok: true, done: Promise.resolve(false) };
  }
  if (first) {
    finish();
    return { ok: true, done: Promise.resolve(true) };
  }
  job.progress.value = progress;
  job.notice.value = { state: 'running', what, frames };
  const done = (async () => {
    for (;;) {
      await nextTask();
      if (run.cancelled) return false;
      try {
        if (slice(EXPORT_SLICING.sliceMs)) return finish();
      } catch (e) {
        return fail(e);
      }
      job.progress.value = progress;
    }
  })();
  return { ok: true, done };
}

/** Why the last export failed (App shows it as an error banner until dismissed or the next export starts); or null. */
export function exportError(store: PanelStore): Signal<string | null> {
  return jobOf(store).error;
}

/** Stops the export under way: nothing is downloaded, and a short note says so. */
export function cancelExport(store: PanelStore): void {
  const job = jobOf(store);
  if (!job.running) return;
  job.running.cancelled = true;
  job.running = null;
  const what = job.notice.value?.what ?? 'trace';
  job.notice.value = { state: 'cancelled', what };
  clearTimeout(job.noteTimer);
  job.noteTimer = setTimeout(() => {
    if (job.notice.value?.state === 'cancelled') job.notice.value = null;
  }, CANCELLED_NOTE_MS);
}

export function exportTraceFile(store: PanelStore): void {
  exportFile(store, 'trace');
}

export function exportHarFile(store: PanelStore): void {
  exportFile(store, 'har');
}

/**
 * Reads, validates and shows a trace file. On any problem the view stays as it was and `importError` says why: the
 * file is analysed aside (PanelStore.prepareTrace) and shown only once shared/trace found it valid. (Checking it in a
 * worker while this thread analyses was measured slower on a busy 2-core machine: the file is then read and parsed
 * twice.)
 */
let lastImport = 0;

export async function importFile(store: PanelStore, file: File): Promise<boolean> {
  // A large trace takes a second or two to read and analyse: say so while it happens (the view stays as it is). A file
  // dropped while another is still being read replaces it: the earlier one is then neither shown nor reported.
  const token = ++lastImport;
  const current = () => token === lastImport;
  store.importing.value = `${file.name} (${formatBytes(file.size)})`;
  // A file that replaces one being analysed starts from nothing, not from the other's progress.
  store.importProgress.value = null;
  try {
    return await readAndShow(store, file, current);
  } finally {
    if (current()) {
      store.importing.value = null;
      store.importProgress.value = null;
      store.importStep.value = null;
    }
  }
}

/**
 * Files dropped on the panel: one is imported; several are refused with a message (which one was meant cannot be
 * guessed, and importing the first silently hid the others: an audit, 2026-12-05). The view stays as it was.
 */
export async function importDropped(store: PanelStore, files: ArrayLike<File>): Promise<boolean> {
  if (files.length === 0) return false;
  if (files.length > 1) {
    store.importError.value = `${files.length} files were dropped: drop one trace file at a time. The view is unchanged.`;
    return false;
  }
  return importFile(store, files[0]!);
}

/** Stops the import under way (its analysis stops at its next slice); the view stays as it was. */
export function cancelImport(store: PanelStore): void {
  lastImport++;
  store.importing.value = null;
  store.importProgress.value = null;
  store.importStep.value = null;
}

/**
 * Whether an imported trace holds MCP traffic: any frame besides page loads and unloads. A trace with `frames: []` or
 * only page lifecycle frames is valid, but has nothing to analyse: the panel says so instead of live-mode wording.
 */
export function hasTraffic(frames: readonly Frame[]): boolean {
  return frames.some(isTraffic);
}

function formatBytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} bytes`;
}

/**
 * The file is read and decoded this much at a time, the event loop in between: Cancel lands, and the notice counts.
 * (187.6 MB read whole and decoded in one call held the panel ~0.4 s; in 4 MB pieces, 20–30 ms each. Measured
 * 2026-12-06 with Node's TextDecoder on a 250,000-frame trace.)
 */
const READ_CHUNK = 4 * 1024 * 1024;
/** Frames checked between two yields (10,000 frames: ~10 ms). */
const CHECK_CHUNK = 10_000;


/** Resolves once the notice as it is now has been painted (or after 100 ms: a hidden panel paints nothing). */
function painted(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    if (typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(() =>
        setTimeout(() => {
          clearTimeout(timer);
          resolve();
        }, 0),
      );
    }
  });
}

/**
 * The file's text, read and decoded in READ_CHUNK pieces (`progress` says how far); null once no longer current. Not
 * UTF-8: read whole again and decoded leniently, with the problem named (decodeUtf8), as the CLI does. A read error
 * is thrown.
 */
async function readText(file: File, current: () => boolean, progress: PanelStore['importProgress']): Promise<{ text: string; notUtf8?: string } | null> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let utf8 = true;
  for (let at = 0; at < file.size; at += READ_CHUNK) {
    const bytes = new Uint8Array(await file.slice(at, at + READ_CHUNK).arrayBuffer());
    if (!current()) return null;
    try {
      parts.push(decoder.decode(bytes, { stream: at + READ_CHUNK < file.size }));
    } catch {
      utf8 = false;
      break;
    }
    progress.value = Math.min(1, (at + READ_CHUNK) / file.size);
  }
  if (utf8) return { text: parts.join('') };
  parts.length = 0;
  const r = decodeUtf8(new Uint8Array(await file.arrayBuffer()));
  return current() ? r : null;
}

async function readAndShow(store: PanelStore, file: File, current: () => boolean): Promise<boolean> {
  const probe = store.probe;
  probe.importStarted();
  // Cancelled, or another file was dropped meanwhile: nothing is said about this one.
  const fail = (error: string, head: string): false => {
    if (current()) store.importError.value = `${file.name} is not a trace this panel can read: ${error}${notATraceHint(head)}`;
    return false;
  };
  // Every step but the parse yields between slices, and stops there once cancelled or replaced by another file.
  store.importStep.value = 'reading';
  let read: { text: string; notUtf8?: string } | null;
  try {
    read = await readText(file, current, store.importProgress);
  } catch (e) {
    if (current()) store.importError.value = `Could not read ${file.name}: ${(e as Error).message}`;
    return false;
  }
  if (!read || !current()) return false;
  // Checked as the CLI checks it: File.text would turn bytes that are not UTF-8 (a trace re-saved in Latin-1) into
  // U+FFFD, changing URIs and hashes without a word. Refused after the checks below, in the CLI's order.
  let { text } = read;
  const { notUtf8 } = read;
  read = null;
  probe.importPhase('read');
  // Enough of the start to tell a HAR by its keys (notATraceHint).
  const head = text.slice(0, 64 * 1024);
  let value: unknown;
  {
    // Scoped: once parsed, nothing holds the file's text any more (a large trace would stay in memory twice).
    const json = traceJsonText(text);
    text = '';
    if ('error' in json) return fail(json.error, head);
    // One JSON.parse call: it cannot be interrupted (1.3 s for 187.6 MB on a busy 2-core host). The notice says so,
    // painted before the thread is held; a Cancel clicked meanwhile lands when it ends, and nothing is shown.
    store.importProgress.value = null;
    store.importStep.value = 'parsing';
    // A file read in one piece parses in tens of milliseconds (~30 ms for 4 MB): no notice to paint first, so no wait
    // for a frame (up to 100 ms in a hidden panel).
    if (file.size > READ_CHUNK) {
      await painted();
      if (!current()) return false;
    }
    try {
      value = JSON.parse(json.text);
    } catch (e) {
      return fail(jsonSyntaxError(json.text, e), head);
    }
  }
  probe.importPhase('parse');
  await nextTask();
  if (!current()) return false;
  let prepared: ReturnType<PanelStore['prepareTrace']>;
  try {
    store.importStep.value = 'checking';
    const steps = validateTraceSteps(value);
    if ('error' in steps) return fail(steps.error, head);
    for (let i = 0; i < steps.count; ) {
      i = Math.min(steps.count, i + CHECK_CHUNK);
      const problem = steps.check(i);
      if (problem !== undefined) return fail(problem, head);
      if (i < steps.count) {
        store.importProgress.value = i / steps.count;
        await nextTask();
        if (!current()) return false;
      }
    }
    probe.importPhase('validate');
    if (notUtf8 !== undefined) return fail(notUtf8, head);
    store.importProgress.value = null;
    store.importStep.value = 'analysing';
    const p = await store.prepareTraceSliced(file.name, value as TraceFileV1, current);
    // Cancelled, or another file was dropped meanwhile: it wins.
    if (!p) return false;
    prepared = p;
  } catch (e) {
    // A bug of ours, not the file's fault: still nothing changes, and the user is told.
    if (current()) store.importError.value = `Could not analyse ${file.name}: internal error (${e instanceof Error ? e.message : String(e)}); the view is unchanged`;
    return false;
  }
  // Cancelled during the snapshot's last stretch: still not shown.
  if (!current()) return false;
  store.showPrepared(prepared);
  probe.importCommitted();
  return true;
}
