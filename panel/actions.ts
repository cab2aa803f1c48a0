// What the toolbar's export and import do: build the trace file (shared/trace) or the HAR (shared/har.ts) of the
// frames in view and hand it to the browser as a download; read a picked or dropped file, validate it, and either
// show it or say precisely what is wrong — leaving the current view untouched.
import { buildHar } from '../shared/har.ts';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';
import { TOOL, decodeUtf8, exportTrace, extraTopLevel, jsonSyntaxError, notATraceHint, serializeTrace, traceJsonText, validateTrace } from '../shared/trace/index.ts';
import { isTraffic, type Frame } from '../shared/frames.ts';
import type { PanelStore } from './store.ts';

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

/** `now` is the trace's createdAt: the view's clock (paused: the pause), so timed findings come back as they were shown. */
export function traceText(store: PanelStore, now = store.clock()): string {
  const settings = store.settings.value ?? DEFAULT_SETTINGS;
  const imported = store.imported?.trace;
  const frames = store.shownFrames();
  return serializeTrace(
    exportTrace({
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
    }),
  );
}

/**
 * `now` is the export instant, as for the trace: an exchange still open (a GET or listen stream) runs to it in the HAR.
 * By default the view's clock: the pause instant while paused; for an imported trace its import clock (its createdAt,
 * never before its last frame), as the store judges it. A `now` passed is used (it was ignored for an import).
 */
export function harText(store: PanelStore, now = store.clock()): string {
  const settings = store.settings.value ?? DEFAULT_SETTINGS;
  const frames = store.shownFrames();
  return JSON.stringify(
    buildHar(frames, { creatorVersion: TOOL.version, extraSecretHeaders: settings.capture.extraSecretHeaders, dropped: droppedOf(store, frames), now }),
    null,
    1,
  );
}

/** What the log lost before this view: the imported trace's count, or the tab's less what the export holds anyway. */
function droppedOf(store: PanelStore, frames: readonly Frame[]): { frames: number; rejected?: number } {
  return store.imported ? store.imported.trace.dropped : store.droppedLacking(frames);
}

export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function exportTraceFile(store: PanelStore): void {
  download(exportFileName(pageUrlOf(store), Date.now(), 'json'), traceText(store), 'application/json');
}

export function exportHarFile(store: PanelStore): void {
  download(exportFileName(pageUrlOf(store), Date.now(), 'har'), harText(store), 'application/json');
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

async function readAndShow(store: PanelStore, file: File, current: () => boolean): Promise<boolean> {
  const probe = store.probe;
  probe.importStarted();
  const fail = (error: string, head: string): false => {
    store.importError.value = `${file.name} is not a trace this panel can read: ${error}${notATraceHint(head)}`;
    return false;
  };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    if (current()) store.importError.value = `Could not read ${file.name}: ${(e as Error).message}`;
    return false;
  }
  // Another file was dropped meanwhile, or the import was cancelled: it wins. (From here on only a long analysis
  // yields, see PanelStore.prepareTraceSliced.)
  if (!current()) return false;
  // Checked as the CLI checks it: File.text would turn bytes that are not UTF-8 (a trace re-saved in Latin-1) into
  // U+FFFD, changing URIs and hashes without a word. Refused after the checks below, in the CLI's order.
  let { text, notUtf8 } = decodeUtf8(bytes);
  bytes = new Uint8Array(0);
  probe.importPhase('read');
  // Enough of the start to tell a HAR by its keys (notATraceHint).
  const head = text.slice(0, 64 * 1024);
  let value: unknown;
  {
    // Scoped: once parsed, nothing holds the file's text any more (a large trace would stay in memory twice).
    const json = traceJsonText(text);
    text = '';
    if ('error' in json) return fail(json.error, head);
    try {
      value = JSON.parse(json.text);
    } catch (e) {
      return fail(jsonSyntaxError(json.text, e), head);
    }
  }
  probe.importPhase('parse');
  let prepared: ReturnType<PanelStore['prepareTrace']>;
  try {
    const r = validateTrace(value);
    probe.importPhase('validate');
    if (!r.ok) return fail(r.error, head);
    if (notUtf8 !== undefined) return fail(notUtf8, head);
    const p = await store.prepareTraceSliced(file.name, r.trace, current);
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
