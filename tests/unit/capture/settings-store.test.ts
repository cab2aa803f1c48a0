// The background's settings on the real LogStore (fake-indexeddb): settings saved when the body cap could be larger
// keep everything else (found by a review, 2026-12-04: the whole object was refused, and the user's extra secret
// headers went with it).
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { LogStore } from '../../../background/log-store.ts';
import { SettingsStore } from '../../../background/settings.ts';
import { DEFAULT_SETTINGS, LIMITS } from '../../../shared/settings.ts';

it('brings a body cap over today\'s limit within it, and keeps the rest of the saved settings', async () => {
  const store = new LogStore('settings-store-test-1');
  const saved = { ...DEFAULT_SETTINGS, maxFrames: 1_000_000, capture: { bodyCapBytes: 32 * 1024 * 1024, extraSecretHeaders: ['x-acme-token'] } };
  await store.saveSettings(saved);
  const s = await new SettingsStore(store).get();
  expect(s).toEqual({ ...saved, capture: { bodyCapBytes: LIMITS.bodyCapBytes[1], extraSecretHeaders: ['x-acme-token'] } });
});

it('still falls back to the defaults for settings that do not validate otherwise', async () => {
  const store = new LogStore('settings-store-test-2');
  await store.saveSettings({ ...DEFAULT_SETTINGS, maxFrames: 'many' });
  expect(await new SettingsStore(store).get()).toEqual(DEFAULT_SETTINGS);
});
