// A V8 CPU profile (CDP `Profiler.stop`) as self time per node: for the profiling tools (page-overhead-profile.ts,
// worker-profile.ts).

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Microseconds of self time per node id: the time until the next sample is given to this one. */
export function selfTimes(profile: CpuProfile): Map<number, number> {
  const selfUs = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const d = timeDeltas[i + 1] ?? 0;
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + d);
  }
  return selfUs;
}
