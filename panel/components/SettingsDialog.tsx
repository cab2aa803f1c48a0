// Settings, edited in the panel and owned by the background: freshness rules per URI pattern (first match wins), the
// default expected freshness, the log caps, and capture redaction (body cap, extra secret headers). Save sends them
// with `settings-set`; the background validates and answers with the new settings (dialog closes) or an error (shown
// here, nothing changes). A panel without a tab loads and saves them too (its settings port); the caps and redaction
// apply to tabs' captured logs, not to an imported trace.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Settings } from '../../shared/settings.ts';
import { capDropNote, defaultText, defaultsDraft, editRule, moveRule, newRule, cliOptions, draftProblem, fromDraft, ruleNotes, toDraft, type Draft, type DraftProblem, type FieldId, type NumberField } from '../model/settings-form.ts';

interface Props {
  settings: Settings;
  /** What this tab's log holds now (null without a tab): lowering a cap below it is said before Save. */
  log?: { frames: number; bytes: number } | null;
  error: string | null;
  /** Save reaches the background (the settings are the extension's); false: they apply to this view only. */
  connected: boolean;
  /** The panel shows a tab's captured log (not an import, not offline): the caps apply to it. */
  tab?: boolean;
  /** The URIs in view: a rule that matches none of them, or whose URIs an earlier rule takes, is said under it. */
  uris?: readonly string[];
  /** An import in view analysed with the settings it records: said (they are not these), with what Save does to it. */
  importNote?: string | null;
  onSave: (s: Settings) => void;
  onClose: () => void;
}

/** A number field's accessible name: its label and unit, as the rules' "Rule 1 max age in seconds" (Max frames counts frames). */
const NAMES: Record<NumberField, string> = {
  defaultSeconds: 'Default max age in seconds',
  maxFrames: 'Max frames',
  maxMiB: 'Max size in MiB',
  bodyCapKiB: 'Body cap in KiB',
};

const NO_URIS: readonly string[] = [];

export function SettingsDialog({ settings, log, error, connected, tab = true, uris = NO_URIS, importNote, onSave, onClose }: Props) {
  const [d, setD] = useState<Draft>(() => toDraft(settings));
  const [problem, setProblem] = useState<DraftProblem | undefined>(undefined);
  // "Restore defaults" put them in the form (said until the next edit).
  const [restored, setRestored] = useState(false);
  const notes = useMemo(() => ruleNotes(d, uris), [d, uris]);
  // The settings the form began from. Saved meanwhile from another panel: an untouched form shows them; an edited one
  // keeps the edits and says that Save would replace them.
  const [edited, setEdited] = useState(false);
  const [base, setBase] = useState(settings);
  // Our own save comes back as a settings change too (normalized: header names in lower case) just before the dialog
  // closes: not one made elsewhere.
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (error) setSaving(false);
  }, [error]);
  const capNote = capDropNote(d, log);
  const changedElsewhere = edited && !saving && JSON.stringify(settings) !== JSON.stringify(base);
  useEffect(() => {
    if (edited || JSON.stringify(settings) === JSON.stringify(base)) return;
    setBase(settings);
    setD(toDraft(settings));
    setProblem(undefined);
  }, [settings]);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dlg = ref.current;
    // Focus goes back to what opened the dialog (the ⚙ button) when it closes, however it closes.
    const opener = document.activeElement as HTMLElement | null;
    if (dlg && !dlg.open) dlg.showModal?.();
    return () => {
      // Close first: while a modal dialog is open the rest of the page is inert and cannot take focus.
      if (dlg?.open) dlg.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const set = (patch: Partial<Draft>) => {
    setD({ ...d, ...patch });
    setEdited(true);
    setSaving(false);
    setProblem(undefined);
    setRestored(false);
  };
  /** Field attributes: marked invalid when it is the problem; described by its unit and default, then the problem. */
  const field = (id: FieldId, described?: string) => {
    const by = [described, problem?.field === id ? 'settings-problem' : undefined].filter(Boolean).join(' ');
    return { 'data-field': id, 'aria-invalid': problem?.field === id ? ('true' as const) : undefined, 'aria-describedby': by || undefined };
  };
  const num = (label: string, key: NumberField, unit: string, more = '') => (
    <label class="field">
      <span>{label}</span>
      <input type="text" inputMode="decimal" aria-label={NAMES[key]} {...field(key, `settings-unit-${key}`)} value={d[key]} onInput={(e) => set({ [key]: e.currentTarget.value } as Partial<Draft>)} />{' '}
      <span class="muted" id={`settings-unit-${key}`} data-default={key}>
        {unit} ({defaultText(key)}{more})
      </span>
    </label>
  );
  /** Focus after a rule moved: its button in the same direction, or the other one at the end of the list. */
  const focusMoved = (to: number, dir: 'up' | 'down') =>
    setTimeout(() => {
      const btn = (k: string) => ref.current?.querySelector<HTMLButtonElement>(`[data-move="${k}"][data-rule="${to}"]`);
      const b = btn(dir);
      (b && !b.disabled ? b : btn(dir === 'up' ? 'down' : 'up'))?.focus();
    });
  return (
    <dialog
      ref={ref}
      class="settings"
      aria-label="Settings"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // Any close the browser makes without a cancel event (dialog.close(), a close request) is heard too: the panel
      // never keeps a closed dialog mounted, which the ⚙ button could not open again.
      onClose={() => onClose()}
    >
      <form
        method="dialog"
        // The panel checks every field itself (its words, aria-invalid, focus; settings-form.ts), never the browser:
        // the number fields are text it reads (a number input showed Chrome's bubble for `1e400` and read `1,5` as 15).
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const p = draftProblem(d);
          setProblem(p);
          if (!p) {
            setSaving(true);
            return onSave(fromDraft(d));
          }
          ref.current?.querySelector<HTMLElement>(`[data-field="${p.field}"]`)?.focus();
        }}
      >
        <h2>Settings</h2>
        <fieldset>
          <legend>Expected freshness (first matching rule wins, then the server's ttlMs, the learned cadence, the default)</legend>
          {d.rules.map((r, i) => (
            <div class="rule" key={r.key ?? `i${i}`}>
              <input
                type="text"
                aria-label={`Rule ${i + 1} URI pattern`}
                {...field(`rule-${i}-pattern`, notes.has(i) ? `rule-${i}-note` : undefined)}
                placeholder="file:///docs/** or postgres://kb/*"
                value={r.pattern}
                onInput={(e) => set({ rules: d.rules.map((x, j) => (j === i ? editRule(x, { pattern: e.currentTarget.value }) : x)) })}
              />
              <input
                type="text"
                inputMode="decimal"
                aria-label={`Rule ${i + 1} max age in seconds`}
                {...field(`rule-${i}-seconds`)}
                value={r.seconds}
                onInput={(e) => set({ rules: d.rules.map((x, j) => (j === i ? editRule(x, { seconds: e.currentTarget.value }) : x)) })}
              />
              <span class="muted">s</span>
              {/* The order is the precedence (the first matching rule wins): a rule moves without being typed again. */}
              <button
                type="button"
                data-move="up"
                data-rule={i}
                aria-label={`Move rule ${i + 1} up`}
                title="Move up: tried before the rule above"
                disabled={i === 0}
                onClick={() => {
                  set(moveRule(d, i, -1));
                  focusMoved(i - 1, 'up');
                }}
              >
                ↑
              </button>
              <button
                type="button"
                data-move="down"
                data-rule={i}
                aria-label={`Move rule ${i + 1} down`}
                title="Move down: tried after the rule below"
                disabled={i === d.rules.length - 1}
                onClick={() => {
                  set(moveRule(d, i, 1));
                  focusMoved(i + 1, 'down');
                }}
              >
                ↓
              </button>
              <button
                type="button"
                aria-label={`Remove rule ${i + 1}`}
                onClick={() => {
                  set({ rules: d.rules.filter((_, j) => j !== i) });
                  // The button goes with its rule: focus goes to the rule that took its place, or to "+ Add rule".
                  setTimeout(() => (ref.current?.querySelector<HTMLElement>(`[data-field="rule-${i}-pattern"]`) ?? ref.current?.querySelector<HTMLElement>('[data-add-rule]'))?.focus());
                }}
              >
                ✕
              </button>
              {notes.has(i) ? (
                <p class="muted rule-note" id={`rule-${i}-note`} data-rule-note={i}>
                  {notes.get(i)}
                </p>
              ) : null}
            </div>
          ))}
          <button
            type="button"
            data-add-rule
            onClick={() => {
              const n = d.rules.length;
              set({ rules: [...d.rules, newRule()] });
              // Straight to the new rule's pattern.
              setTimeout(() => ref.current?.querySelector<HTMLElement>(`[data-field="rule-${n}-pattern"]`)?.focus());
            }}
          >
            + Add rule
          </button>
          {num('Default max age', 'defaultSeconds', 's')}
          <p class="muted cli-equivalent">
            {connected ? 'The saved rules' : "This view's rules"} for <code>npm run analyze</code> (milliseconds there): <code data-cli-options>{cliOptions(settings)}</code>
          </p>
          {importNote ? (
            <p class="muted" data-import-settings>
              {importNote}
            </p>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>Log caps, for each tab's captured log (the oldest frames are dropped and counted)</legend>
          {!tab ? (
            <p class="muted" data-caps-scope>
              They apply to the logs of the tabs the extension captures, not to {connected ? 'an imported trace' : 'this view'}.
            </p>
          ) : null}
          {num('Max frames', 'maxFrames', 'frames')}
          {num('Max size', 'maxMiB', 'MiB')}
          {capNote ? (
            <p class="warn-text" data-cap-note role="status">
              {capNote}
            </p>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>Redaction at capture</legend>
          {num('Body cap', 'bodyCapKiB', 'KiB', '; larger bodies keep a prefix, size and hash')}
          <label class="field">
            <span>Extra secret headers</span>
            <input type="text" aria-label="Extra secret headers" {...field('extraHeaders')} placeholder="x-tenant, x-customer-key" value={d.extraHeaders} onInput={(e) => set({ extraHeaders: e.currentTarget.value })} />
          </label>
          <p class="muted">Authorization, Cookie, auth-like headers and token-like query parameters are always redacted.</p>
        </fieldset>
        {problem || error ? (
          <p class="error-text" role="alert" id="settings-problem" data-settings-error="true">
            {problem ? problem.message : error}
          </p>
        ) : null}
        {changedElsewhere ? (
          <p class="muted" role="status" data-settings-changed="true">
            The settings were saved from another panel while you edited: Save replaces them with these; Cancel keeps them.
          </p>
        ) : null}
        {!connected ? <p class="muted">No tab connected: these settings apply to this view only.</p> : null}
        {restored ? (
          <p class="muted" role="status" data-settings-restored="true">
            The defaults are in the form: Save keeps them (no freshness rules); Cancel leaves the settings as they were.
          </p>
        ) : null}
        <div class="buttons">
          <button
            type="button"
            class="restore-defaults"
            onClick={() => {
              set(defaultsDraft());
              setRestored(true);
            }}
          >
            Restore defaults
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Save
          </button>
        </div>
      </form>
    </dialog>
  );
}
