// The real devtools window (headed, under a private Xvfb, --auto-open-devtools-for-tabs) lists the "MCP" panel;
// selecting it loads our panel inside devtools, which connects to the inspected tab and shows its MCP traffic.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleClient } from '../support/bundle.ts';
import { debuggingPort, evaluateIn, listTargets, type CdpTarget } from '../support/cdp.ts';
import { startBrowser, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { startV1Server, type V1Server } from '../support/v1-server.ts';
import { startXvfb, type Display } from '../support/xvfb.ts';
import WebSocket from 'ws';

/** Sends CDP commands to a target in order (real input into the devtools window). */
async function cdp(target: CdpTarget, calls: [string, Record<string, unknown>][]): Promise<void> {
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  try {
    let id = 0;
    for (const [method, params] of calls) {
      const mine = ++id;
      await new Promise<void>((ok) => {
        const on = (d: unknown) => {
          if ((JSON.parse(String(d)) as { id?: number }).id === mine) {
            ws.off('message', on);
            ok();
          }
        };
        ws.on('message', on);
        ws.send(JSON.stringify({ id: mine, method, params }));
      });
    }
  } finally {
    ws.close();
  }
}
const key = (k: string, code: string, vk: number, modifiers = 0): [string, Record<string, unknown>][] => [
  ['Input.dispatchKeyEvent', { type: 'rawKeyDown', key: k, code, windowsVirtualKeyCode: vk, modifiers }],
  ['Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: vk, modifiers }],
];

let x: Display;
let browser: Browser;
let mcp: V1Server;
let site: StaticServer;

beforeAll(async () => {
  x = await startXvfb();
  [browser, mcp, site] = await Promise.all([
    startBrowser({ headless: false, devtools: true, display: x.display, args: ['--remote-debugging-port=0', '--window-size=1400,900'] }),
    startV1Server(),
    startStaticServer(),
  ]);
  site.routes.set('/client.js', js(await bundleClient('tests/e2e/clients/v1-client.ts')));
  site.routes.set('/', html('<h1>inspected page</h1><script src="/client.js"></script>'));
});
afterAll(async () => {
  await browser?.close();
  await x?.close();
  await mcp?.close();
  await site?.close();
});

it('shows an "MCP" panel in the real devtools window, live on the inspected tab', async () => {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await page.goto(site.url + '/');
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
  await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'));

  const port = debuggingPort(browser.userDataDir);
  const devtools = await waitFor(async () => (await listTargets(port)).find((t) => t.url.startsWith('devtools://devtools/')), 15_000, 'devtools window');
  const panelId = `chrome-extension://${browser.extensionId}MCP`;
  // The panel is registered by our devtools page (it may sit in the overflow menu, so ask devtools, not the tab strip).
  const ids = await waitFor(async () => {
    const tabIds = (await evaluateIn(devtools, `(async () => {
      const UI = await import('./ui/legacy/legacy.js');
      return UI.InspectorView.InspectorView.instance().tabbedPane.tabIds();
    })()`)) as string[];
    return tabIds.includes(panelId) ? tabIds : undefined;
  }, 15_000, 'MCP panel registered');
  expect(ids).toContain(panelId);
  await evaluateIn(devtools, `(async () => {
    const UI = await import('./ui/legacy/legacy.js');
    await UI.InspectorView.InspectorView.instance().showPanel(${JSON.stringify(panelId)});
  })()`);
  // The selected tab in the tab strip, as the user sees it (tabs live in shadow roots; the strip re-renders async).
  const selected = await waitFor(async () => {
    const tab = (await evaluateIn(devtools, `(() => {
      const tabs = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.getAttribute('role') === 'tab') tabs.push(el);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      const tab = tabs.find((t) => t.id === 'tab-' + ${JSON.stringify(panelId)});
      return tab ? { label: tab.textContent, ariaSelected: tab.getAttribute('aria-selected') } : undefined;
    })()`)) as { label: string; ariaSelected: string } | undefined;
    return tab?.ariaSelected === 'true' ? tab : undefined;
  }, 10_000, 'MCP tab selected');
  expect(selected.label).toBe('MCP');

  // Our panel page now runs inside devtools: find its frame and read what it shows.
  const panelTarget: CdpTarget = await waitFor(
    async () => (await listTargets(port)).find((t) => t.url.startsWith(`chrome-extension://${browser.extensionId}/panel.html`)),
    15_000,
    'panel frame',
  );
  const shown = await waitFor(async () => {
    // The raw rows live in the Messages view.
    const v = (await evaluateIn(panelTarget, `(document.querySelector('[role="tab"][data-view="messages"]')?.click(), {
      status: document.querySelector('.status-bar')?.getAttribute('data-status'),
      methods: [...document.querySelectorAll('.frame-row[data-method]')].map((r) => r.getAttribute('data-method')),
      inDevtools: typeof chrome.devtools?.inspectedWindow?.tabId === 'number',
      themeName: chrome.devtools?.panels?.themeName,
      themeClass: document.documentElement.className,
    })`)) as { status: string; methods: string[]; inDevtools: boolean; themeName: string; themeClass: string };
    return v.status === 'live' && v.methods.includes('resources/read') ? v : undefined;
  }, 15_000, 'panel live with traffic');
  expect(shown.inDevtools).toBe(true);
  // It follows the devtools theme ("default" is devtools' light theme), with no ?theme= to go by.
  expect(['default', 'dark']).toContain(shown.themeName);
  expect(shown.themeClass.split(' ')).toContain(shown.themeName === 'dark' ? 'theme-dark' : 'theme-light');
  expect(shown.methods).toContain('initialize');

  // The user switches devtools' theme while the panel is open (Settings → Appearance, here through devtools' own
  // settings object): the panel follows, both ways (it read the theme only at start: an accessibility audit).
  const setDevtoolsTheme = (t: string) =>
    evaluateIn(devtools, `(async () => { const C = await import('./core/common/common.js'); C.Settings.Settings.instance().moduleSetting('ui-theme').set(${JSON.stringify(t)}); return 1; })()`);
  const themeClass = () => evaluateIn(panelTarget, 'document.documentElement.className') as Promise<string>;
  for (const [setting, cls] of [
    ['dark', 'theme-dark'],
    ['default', 'theme-light'],
  ] as const) {
    await setDevtoolsTheme(setting);
    const now = await waitFor(async () => ((await themeClass()).split(' ').includes(cls) ? await themeClass() : undefined), 10_000, `panel ${cls}`);
    expect(now.split(' ').filter((c) => c.startsWith('theme-'))).toEqual([cls]);
  }

  // Ctrl+F in the devtools window opens DevTools' own Find bar over the panel (the panel's own Ctrl+F handler never
  // gets to focus its filter there): what is typed in that bar is the panel's filter, and Esc
  // (closing the bar) clears it. Review 2026-12-06: the filter stayed empty.
  const filterOf = () => evaluateIn(panelTarget, `document.querySelector('input[aria-label="Filter"]')?.value`) as Promise<string | undefined>;
  // The key goes to DevTools from its own UI (here the MCP tab in its tab strip). From inside the panel's frame it may
  // reach the panel's own handler first, which focuses the panel's filter: the filter is driven either way, but only
  // this way is the forwarding tested.
  await evaluateIn(devtools, `(() => {
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.id === 'tab-' + ${JSON.stringify(panelId)}) return el;
        const inner = el.shadowRoot && walk(el.shadowRoot);
        if (inner) return inner;
      }
    };
    walk(document)?.focus();
    return 1;
  })()`);
  await cdp(devtools, key('f', 'KeyF', 70, process.platform === 'darwin' ? 4 : 2));
  await cdp(devtools, [['Input.insertText', { text: 'initialize' }]]);
  const filtered = await waitFor(async () => ((await filterOf()) === 'initialize' ? 'initialize' : undefined), 10_000, 'Find drives the filter');
  expect(filtered).toBe('initialize');
  const rows = await waitFor(async () => {
    const m = (await evaluateIn(panelTarget, `[...document.querySelectorAll('.frame-row[data-method]')].map((r) => r.getAttribute('data-method'))`)) as string[];
    return m.length > 0 && !m.includes('resources/read') ? m : undefined;
  }, 10_000, 'Messages filtered by Find');
  expect(rows).toContain('initialize');
  // (Enter in the bar sends no next/previous here: DevTools keeps its Find arrows disabled for an extension panel, which
  // cannot report a match count; the panel would step its selection on them, tests/unit/panel/devtools-search.test.ts.)
  await cdp(devtools, key('Escape', 'Escape', 27));
  expect(await waitFor(async () => ((await filterOf()) === '' ? 'cleared' : undefined), 10_000, 'closing Find clears the filter')).toBe('cleared');
});
