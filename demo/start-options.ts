// Command-line options of `npm start` (demo/start.ts): parsing and the usage text. Pure, so the errors a user can make
// (unknown scenario, bad port, unknown flag) are unit-tested.
import { CATALOGUE } from '../shared/findings/catalogue.ts';
import type { FindingId } from '../shared/findings/types.ts';
import { SCENARIOS, SCENARIO_NAMES } from './scenarios.ts';

export const DEFAULT_SERVER_PORT = 8931;
export const DEFAULT_PAGE_PORT = 8932;
export const DEFAULT_EDIT_INTERVAL_MS = 20_000;

export interface StartOptions {
  scenario?: string;
  serverPort: number;
  pagePort: number;
  editIntervalMs: number;
  /** Skip building the extension and the page when their outputs exist. */
  noBuild: boolean;
  /** Never open Chromium, even with a display. */
  noBrowser: boolean;
}

export type ParsedArgs =
  | { kind: 'run'; options: StartOptions }
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'error'; message: string };

export const USAGE = `Usage: npm start [-- options]

Starts the knowledge-base MCP server and the demo page on loopback, and opens Chromium with the
extension and devtools where a display exists.

Options:
  --scenario <name>     play a seed scenario in the page (see --list)
  --list                list the scenarios and exit
  --port <n>            MCP server port (default ${DEFAULT_SERVER_PORT}; 0 = any free port)
  --client-port <n>     demo page port (default ${DEFAULT_PAGE_PORT}; 0 = any free port)
  --edit-interval <ms>  edit a document every <ms> (default ${DEFAULT_EDIT_INTERVAL_MS}; 0 = off)
  --no-build            do not rebuild dist/ and the page when they exist (also DEMO_NO_BUILD=1)
  --no-browser          do not open Chromium
  --help                this text`;

/** One line per scenario, name and title: the short list an error message names the scenarios with. */
export function scenarioNames(): string {
  const width = Math.max(...SCENARIO_NAMES.map((n) => n.length));
  return SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.title}`).join('\n');
}

/**
 * `--list`: each scenario's name and title, the findings it expects, and those it may also show (its `allowed` ones:
 * side effects of the same fault, which the panel may show too), straight from demo/scenarios.ts. Each finding is named
 * by its id and by the title the panel shows for it (shared/findings/catalogue.ts), one a line.
 */
export function scenarioList(): string {
  const width = Math.max(...SCENARIO_NAMES.map((n) => n.length));
  const indent = '    ';
  const labels = ['expects:', 'may also show:'];
  const labelWidth = Math.max(...labels.map((l) => l.length)) + 1;
  const idWidth = Math.max(...SCENARIOS.flatMap((s) => [...s.findings.expected, ...(s.findings.allowed ?? [])].map((id) => id.length)));
  const section = (label: string, ids: readonly FindingId[]) =>
    ids.map((id, i) => `${indent}${(i === 0 ? label : '').padEnd(labelWidth)}${id.padEnd(idWidth)}  "${CATALOGUE[id].title}"`);
  return SCENARIOS.map((s) => {
    const lines = [`  ${s.name.padEnd(width)}  ${s.title}`];
    if (s.findings.expected.length) lines.push(...section('expects:', s.findings.expected));
    else lines.push(`${indent}${'expects:'.padEnd(labelWidth)}no findings`);
    if (s.findings.allowed?.length) lines.push(...section('may also show:', s.findings.allowed));
    return lines.join('\n');
  }).join('\n');
}

function port(flag: string, v: string | undefined): number | string {
  const n = Number(v);
  if (v === undefined || !/^\d+$/.test(v) || n > 65535) return `${flag} needs a port number 0–65535, got ${v === undefined ? 'nothing' : `'${v}'`}`;
  return n;
}

export function parseStartArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  const o: StartOptions = {
    serverPort: DEFAULT_SERVER_PORT,
    pagePort: DEFAULT_PAGE_PORT,
    editIntervalMs: DEFAULT_EDIT_INTERVAL_MS,
    noBuild: env.DEMO_NO_BUILD === '1',
    noBrowser: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    const [flag, inline] = raw.startsWith('--') && raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    const value = () => inline ?? argv[++i];
    // A switch takes no value: `--no-build=0` read as "build" and did the opposite.
    if (inline !== undefined && ['--help', '--list', '--no-build', '--no-browser'].includes(flag)) {
      return { kind: 'error', message: `${flag} takes no value (got '${raw}'): give it alone (${flag}) to turn it on, or leave it out.` };
    }
    switch (flag) {
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--list':
        return { kind: 'list' };
      case '--scenario': {
        const name = value();
        if (!name) return { kind: 'error', message: `--scenario needs a name. Scenarios (findings: --list):\n${scenarioNames()}` };
        if (!SCENARIO_NAMES.includes(name)) return { kind: 'error', message: `Unknown scenario '${name}'. Scenarios (findings: --list):\n${scenarioNames()}` };
        o.scenario = name;
        break;
      }
      case '--port':
      case '--client-port': {
        const p = port(flag, value());
        if (typeof p === 'string') return { kind: 'error', message: p };
        if (flag === '--port') o.serverPort = p;
        else o.pagePort = p;
        break;
      }
      case '--edit-interval': {
        const v = value();
        const n = Number(v);
        if (v === undefined || !/^\d+$/.test(v)) return { kind: 'error', message: `--edit-interval needs milliseconds (0 = off), got ${v === undefined ? 'nothing' : `'${v}'`}` };
        // The admin endpoint's bound too (and beyond 2^31 - 1 ms Node would fire the timer every millisecond).
        if (n > 3_600_000) return { kind: 'error', message: `--edit-interval: at most 3600000 ms (one hour), got ${v}` };
        o.editIntervalMs = n;
        break;
      }
      case '--no-build':
        o.noBuild = true;
        break;
      case '--no-browser':
        o.noBrowser = true;
        break;
      default:
        return { kind: 'error', message: `Unknown option '${raw}'.\n\n${USAGE}` };
    }
  }
  if (o.serverPort !== 0 && o.serverPort === o.pagePort) return { kind: 'error', message: `--port and --client-port must differ (both ${o.serverPort})` };
  return { kind: 'run', options: o };
}
