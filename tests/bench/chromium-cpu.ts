// CPU time so far of every Chromium process on the machine, from /proc (Linux only): for the page-overhead tools
// (page-overhead-cpu.ts, page-overhead-main-cpu.ts). Chromium rewrites its command line as one space-separated string
// (its process title), which gives each process its type.
import { readFileSync, readdirSync } from 'node:fs';

/** One clock tick (USER_HZ = 100). */
export const CLOCK_MS = 10;

/** user + system CPU ms of a /proc stat file (fields 14 and 15). */
function statMs(path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_MS;
}

export interface ChromiumCpu {
  /** browser, renderer, renderer (extension), utility:NetworkService, gpu-process… */
  type: string;
  /** The whole process's CPU ms. */
  ms: number;
  /** Its main thread's CPU ms (for a renderer: the thread the page's scripts, the hook included, run on). */
  mainMs: number;
}

/** Every Chromium process by pid. */
export function chromiumCpu(): Map<number, ChromiumCpu> {
  const out = new Map<number, ChromiumCpu>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!/^\S*chrom/.test(cmd)) continue;
      const type = /--type=(\S+)/.exec(cmd)?.[1] ?? 'browser';
      const sub = /--utility-sub-type=(\S+)/.exec(cmd)?.[1]?.split('.').pop();
      const ext = cmd.includes('--extension-process') ? ' (extension)' : '';
      out.set(Number(d), { type: `${type}${sub ? `:${sub}` : ''}${ext}`, ms: statMs(`/proc/${d}/stat`), mainMs: statMs(`/proc/${d}/task/${d}/stat`) });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}
