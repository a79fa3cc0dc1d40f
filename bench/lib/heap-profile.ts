/** The parts of V8's sampling heap profile (`HeapProfiler.stopSampling`) read here. */
export interface HeapProfile {
  head: HeapNode;
}

/** One call path of the profile: the bytes its frame allocated itself, and its callees. */
interface HeapNode {
  callFrame: { functionName: string; url?: string; lineNumber: number };
  selfSize: number;
  children?: HeapNode[];
}

type CallFrame = HeapNode["callFrame"];

/**
 * Bytes allocated by every frame of a sampling heap profile, self (not its
 * callees'), keyed by `name(frame)`: where a request's allocations are made,
 * so the ranking points at the code that makes the garbage. The profile
 * counts objects already collected only when sampling was started with
 * `includeObjectsCollectedByMinorGC` and `…MajorGC` (what
 * `IsolateProfiler.sampleHeap` does); without them it counts what is still
 * alive, which says nothing of a request's garbage.
 *
 * @example
 * ```ts
 * const bytes = allocatedBytes(profile, (frame) => frame.functionName); // Map { "get" => 3120, ... }
 * ```
 */
export function allocatedBytes(
  profile: HeapProfile,
  name: (frame: CallFrame) => string,
): Map<string, number> {
  const bytes = new Map<string, number>();
  const pending: HeapNode[] = [profile.head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.selfSize > 0) {
      const key = name(node.callFrame);
      bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    }
    if (node.children) pending.push(...node.children);
  }
  return bytes;
}
