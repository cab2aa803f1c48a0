// Settings, edited in the panel and owned by the background: freshness rules per URI pattern (first match wins), the
// default expected freshness, the log caps, and capture redaction (body cap, extra secret headers). Save sends them
// with `settings-set`; the background validates and answers with the new settings (dialog closes) or an error (shown
// here, nothing changes). Without a tab they apply to this view only.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FreshnessRule } from '../../shared/engine/index.ts';
import type { Settings } from '../../shared/settings.ts';

interface Props {
  settings: Settings;
  error: string | null;
  connected: boolean;
  onSave: (s: Settings) => void;
  onClose: () => void;
}

interface Draft {
  rules: Array<{ pattern: string; seconds: string }>;
  defaultSeconds: string;
  maxFrames: string;
  maxMiB: string;
  bodyCapKiB: string;
  extraHeaders: string;
}

function toDraft(s: Settings): Draft {
  return {
    rules: s.freshnessRules.map((r) => ({ pattern: r.pattern, seconds: String(r.maxAgeMs / 1000) })),
    defaultSeconds: String(s.defaultMaxAgeMs / 1000),
    maxFrames: String(s.maxFrames),
    maxMiB: String(s.maxBytes / 1024 / 1024),
    bodyCapKiB: String(s.capture.bodyCapBytes / 1024),
    extraHeaders: s.capture.extraSecretHeaders.join(', '),
  };
}

/** Numbers as typed (NaN stays NaN: the background names the bad field). */
function fromDraft(d: Draft): Settings {
  const rules: FreshnessRule[] = d.rules.filter((r) => r.pattern.trim() !== '' || r.seconds.trim() !== '').map((r) => ({ pattern: r.pattern, maxAgeMs: Number(r.seconds) * 1000 }));
  return {
    freshnessRules: rules,
    defaultMaxAgeMs: Number(d.defaultSeconds) * 1000,
    maxFrames: Number(d.maxFrames),
    maxBytes: Number(d.maxMiB) * 1024 * 1024,
    capture: {
      bodyCapBytes: Number(d.bodyCapKiB) * 1024,
      extraSecretHeaders: d.extraHeaders
        .split(/[\s,]+/)
        .map((h) => h.trim())
        .filter(Boolean),
    },
  };
}

export function SettingsDialog({ settings, error, connected, onSave, onClose }: Props) {
  const [d, setD] = useState<Draft>(() => toDraft(settings));
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dlg = ref.current;
    if (dlg && !dlg.open) dlg.showModal?.();
  }, []);
  const set = (patch: Partial<Draft>) => setD({ ...d, ...patch });
  const num = (label: string, key: 'defaultSeconds' | 'maxFrames' | 'maxMiB' | 'bodyCapKiB', unit: string) => (
    <label class="field">
      <span>{label}</span>
      <input type="number" aria-label={label} value={d[key]} onInput={(e) => set({ [key]: e.currentTarget.value } as Partial<Draft>)} /> <span class="muted">{unit}</span>
    </label>
  );
  return (
    <dialog
      ref={ref}
      class="settings"
      aria-label="Settings"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(fromDraft(d));
        }}
      >
        <h2>Settings</h2>
        <fieldset>
          <legend>Expected freshness (first matching rule wins, then the server's ttlMs, the learned cadence, the default)</legend>
          {d.rules.map((r, i) => (
            <div class="rule" key={i}>
              <input
                type="text"
                aria-label={`Rule ${i + 1} URI pattern`}
                placeholder="file:///docs/** or postgres://kb/*"
                value={r.pattern}
                onInput={(e) => set({ rules: d.rules.map((x, j) => (j === i ? { ...x, pattern: e.currentTarget.value } : x)) })}
              />
              <input
                type="number"
                aria-label={`Rule ${i + 1} max age in seconds`}
                value={r.seconds}
                onInput={(e) => set({ rules: d.rules.map((x, j) => (j === i ? { ...x, seconds: e.currentTarget.value } : x)) })}
              />
              <span class="muted">s</span>
              <button type="button" aria-label={`Remove rule ${i + 1}`} onClick={() => set({ rules: d.rules.filter((_, j) => j !== i) })}>
                ✕
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set({ rules: [...d.rules, { pattern: '', seconds: '60' }] })}>
            + Add rule
          </button>
          {num('Default max age', 'defaultSeconds', 's')}
        </fieldset>
        <fieldset>
          <legend>Log caps per tab (the oldest frames are dropped and counted)</legend>
          {num('Max frames', 'maxFrames', 'frames')}
          {num('Max size', 'maxMiB', 'MiB')}
        </fieldset>
        <fieldset>
          <legend>Redaction at capture</legend>
          {num('Body cap', 'bodyCapKiB', 'KiB (larger bodies keep a prefix, size and hash)')}
          <label class="field">
            <span>Extra secret headers</span>
            <input type="text" aria-label="Extra secret headers" placeholder="x-tenant, x-customer-key" value={d.extraHeaders} onInput={(e) => set({ extraHeaders: e.currentTarget.value })} />
          </label>
          <p class="muted">Authorization, Cookie, auth-like headers and token-like query parameters are always redacted.</p>
        </fieldset>
        {error ? (
          <p class="error-text" role="alert" data-settings-error="true">
            {error}
          </p>
        ) : null}
        {!connected ? <p class="muted">No tab connected: these settings apply to this view only.</p> : null}
        <div class="buttons">
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
