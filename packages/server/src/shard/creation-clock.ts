/**
 * Creation times that never repeat within a shard, so documents inserted in
 * the same millisecond keep their insertion order (`_creationTime` breaks
 * index ties before `_id`).
 */
export function creationClock(): () => number {
  let last = 0;
  return () => {
    const now = Date.now();
    last = now > last ? now : last + 1 / 1024;
    return last;
  };
}
