/** A shard's clock of creation times; `raise` keeps every later time above a floor. */
export interface CreationClock {
  (): number;
  /** Every time answered from now on is greater than `floor`. */
  raise(floor: number): void;
}

/**
 * Creation times that never repeat within a shard, so documents inserted in
 * the same millisecond keep their insertion order (`_creationTime` breaks
 * index ties before `_id`). Raised at start above every migration's
 * boundary, so a document written by new code is never taken for an old one.
 *
 * @example const now = creationClock(); now.raise(latestStoredTime); now();
 */
export function creationClock(): CreationClock {
  let last = 0;
  const clock = () => {
    const now = Date.now();
    last = now > last ? now : last + 1 / 1024;
    return last;
  };
  return Object.assign(clock, {
    raise(floor: number) {
      if (floor > last) last = floor;
    },
  });
}
