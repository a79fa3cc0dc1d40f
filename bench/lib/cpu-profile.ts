/** The parts of a V8 `.cpuprofile` read here. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url?: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

type CallFrame = CpuProfile["nodes"][number]["callFrame"];

/** A frame's name as tables show it: V8's own nodes as they are, code by name and bundle line. */
function frameName(frame: CallFrame): string {
  return frame.functionName.startsWith("(")
    ? frame.functionName
    : `${frame.functionName || "(anonymous)"} (bundle line ${frame.lineNumber + 1})`;
}

/**
 * Sampled self time (ms) of every frame of a profile, `(idle)` left out,
 * keyed by `name(frame)` — by default the function's name and its line in
 * the bundle. Self time, not total: a frame's share is what it ran itself,
 * so the ranking points at the code to change, not at its callers.
 *
 * @example
 * ```ts
 * const byFrame = selfTimes(profile); // Map { "(garbage collector)" => 12.3, ... }
 * ```
 */
export function selfTimes(
  profile: CpuProfile,
  name: (frame: CallFrame) => string = frameName,
): Map<string, number> {
  return tally(profile, name, (index) => (profile.timeDeltas[index] ?? 0) / 1000);
}

/**
 * Samples of every frame of a profile (`(idle)` left out), keyed by
 * `name(frame)`. V8 samples on a wall-clock timer: on a loaded machine a
 * sample taken after the thread waited for a core carries that wait in its
 * time delta, so a profile's time overstates CPU; the share of samples does
 * not, and times the process's measured CPU gives CPU per function.
 *
 * @example
 * ```ts
 * const samples = selfSamples(profile); // Map { "(program)" => 812, ... }
 * ```
 */
export function selfSamples(
  profile: CpuProfile,
  name: (frame: CallFrame) => string = frameName,
): Map<string, number> {
  return tally(profile, name, () => 1);
}

/** Sums `weight(sample index)` per frame key, `(idle)` left out. */
function tally(
  profile: CpuProfile,
  name: (frame: CallFrame) => string,
  weight: (index: number) => number,
): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFrame = new Map<string, number>();
  profile.samples.forEach((sample, index) => {
    const frame = nodes.get(sample);
    if (!frame || frame.functionName === "(idle)") return;
    const key = name(frame);
    byFrame.set(key, (byFrame.get(key) ?? 0) + weight(index));
  });
  return byFrame;
}

/**
 * The `count` frames with the most sampled self time, `(idle)` left out.
 *
 * @example
 * ```ts
 * topFrames(profile, 8); // [{ frame: "parse (bundle line 120)", ms: 4.1 }, ...]
 * ```
 */
export function topFrames(profile: CpuProfile, count: number): { frame: string; ms: number }[] {
  return [...selfTimes(profile).entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, ms]) => ({ frame, ms }));
}

/**
 * Total sampled CPU time of a V8 `.cpuprofile` (samples not on the idle node).
 *
 * @example
 * ```ts
 * const ms = cpuMs(JSON.parse(await readFile("startup.cpuprofile", "utf8")));
 * ```
 */
export function cpuMs(profile: CpuProfile): number {
  let ms = 0;
  for (const frameMs of selfTimes(profile).values()) ms += frameMs;
  return ms;
}
