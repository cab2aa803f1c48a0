// Starts a real Chromium (Debian's /usr/bin/chromium, or CHROME_PATH, or a usual install path) with the built extension
// loaded, in a fresh persistent profile, through playwright-core. Used by `npm start` and by the end-to-end tests.
// Never lets a tool download a browser of its own.
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** The browser binary to use, or undefined when none is installed. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  // A CHROME_PATH that names nothing is a mistake to say, not to replace silently with another browser.
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH is ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  return CANDIDATES.find((p) => existsSync(p));
}

export interface LaunchOptions {
  /** Path of the unpacked extension (default: dist/). Pass null to launch without it (for baselines). */
  extensionDir?: string | null;
  headless?: boolean;
  /** Open devtools for every tab (only takes effect headed). */
  devtools?: boolean;
  /** Extra Chromium flags. */
  args?: string[];
  /** X display for headed runs (e.g. from startXvfb). */
  display?: string;
  /**
   * Let playwright close the browser on SIGINT/SIGTERM/SIGHUP (its default; on SIGINT it then exits the process with 130).
   * `npm start` passes false: it stops its servers and the browser itself.
   */
  handleSignals?: boolean;
  /** Keep the back/forward cache on, as a user's Chrome has it (playwright turns it off by default). */
  backForwardCache?: boolean;
}

export interface LaunchedChromium {
  context: BrowserContext;
  /** The fresh profile directory (removed on close). */
  userDataDir: string;
  /** The extension's id (undefined without extension). */
  extensionId?: string;
  /** The extension's service worker as playwright sees it right now (it may be replaced after a restart). */
  serviceWorker(): Promise<Worker>;
  close(): Promise<void>;
}

export const BASE_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--password-store=basic',
];

export async function launchChromium(opts: LaunchOptions = {}): Promise<LaunchedChromium> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium found: install it (apt-get install -y chromium) or set CHROME_PATH.');
  const extensionDir = opts.extensionDir === undefined ? resolve('dist') : opts.extensionDir;
  if (extensionDir && !existsSync(join(extensionDir, 'manifest.json'))) {
    throw new Error(`No built extension at ${extensionDir}: run \`npm run build\` first.`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'mcp-devtools-profile-'));
  const args = [...BASE_FLAGS, ...(opts.args ?? [])];
  if (extensionDir) args.push(`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`);
  if (opts.devtools) args.push('--auto-open-devtools-for-tabs');
  const headless = opts.headless ?? true;
  let context: BrowserContext | undefined;
  // A launch that fails half-way leaves neither a browser nor its profile behind.
  const fail = async (err: unknown): Promise<never> => {
    await context?.close().catch(() => undefined);
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  };
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless,
    args,
    // playwright adds --disable-extensions by default; the extension is the point.
    ignoreDefaultArgs: opts.backForwardCache ? ['--disable-extensions', '--disable-back-forward-cache'] : ['--disable-extensions'],
    viewport: null,
    handleSIGINT: opts.handleSignals ?? true,
    handleSIGTERM: opts.handleSignals ?? true,
    handleSIGHUP: opts.handleSignals ?? true,
    env: opts.display ? { ...process.env, DISPLAY: opts.display } : process.env,
  }).catch(fail);
  const ctx = context;

  const serviceWorker = async (): Promise<Worker> => {
    // The newest one: after an extension reload playwright may still list the dead worker first.
    const live = ctx.serviceWorkers().filter((w) => w.url().startsWith('chrome-extension://')).at(-1);
    return live ?? (await ctx.waitForEvent('serviceworker', { timeout: 15_000 }));
  };
  let extensionId: string | undefined;
  if (extensionDir) {
    const worker = await serviceWorker().catch(() =>
      fail(new Error(`the extension did not start in ${executablePath} (no service worker within 15 s). Branded Google Chrome 137+ ignores --load-extension: use Chromium or Chrome for Testing (CHROME_PATH).`)),
    );
    extensionId = new URL(worker.url()).host;
  }

  return {
    context: ctx,
    userDataDir,
    extensionId,
    serviceWorker,
    async close() {
      await ctx.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
