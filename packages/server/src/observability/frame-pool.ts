import { type CallScope, type ReusableFrame, reusableFrame } from "./call-scope.ts";

/**
 * How many calls at least begin, in other frames, between two calls of one
 * frame. Work a finished call left running (a timer, an unawaited
 * promise) stays in its frame: its lines are kept out of every record until
 * the frame runs another call, and the first such line retires the frame
 * (see `ScopeHolder.stray`), so only work that prints for the first time
 * after this many later calls can land in another call's record. Making the
 * frames costs a shard about 0.2 ms once.
 */
export const FRAMES_BEFORE_REUSE = 32;

/**
 * The most frames a shard keeps between calls: a burst of calls at once
 * makes a frame each, and past this many the rest are let go when their
 * calls end.
 */
const MAX_IDLE_FRAMES = 256;

/**
 * `AsyncLocalStorage` frames made once and entered call after call, for one
 * Durable Object: workerd lets a frame be entered only from the object (or
 * request) that made it, so each shard keeps its own. A frame made per call
 * cost a shard 5.7 µs in the REST read of BENCHMARKS.md section 12 (workerd
 * allocates it on the garbage-collected heap); entering a made one costs a
 * fraction of that. Calls running at once are each in a frame of their own,
 * so their lines never mix.
 */
export class FramePool {
  /** Frames no call runs in, oldest first. */
  readonly #idle: ReusableFrame[] = [];

  /**
   * Runs `work` as the call of `scope` (console lines printed inside it land
   * in `scope`, as with `runInScope`), then leaves its frame for a later call.
   *
   * @example const value = await frames.run(new CallScope(), () => handler(ctx, args));
   */
  async run<T>(scope: CallScope, work: () => Promise<T>): Promise<T> {
    let frame = this.#take();
    frame.holder.scope = scope;
    let started = false;
    const start = () => {
      started = true;
      return work();
    };
    try {
      try {
        return await frame.run(start);
      } catch (error) {
        if (started) throw error;
        // workerd refused the frame (made in a request that is not this one's): start afresh.
        frame.holder.scope = null;
        frame.holder.stray = true;
        this.#idle.length = 0;
        frame = reusableFrame();
        frame.holder.scope = scope;
        return await frame.run(work);
      }
    } finally {
      frame.holder.scope = null;
      if (this.#idle.length < MAX_IDLE_FRAMES) this.#idle.push(frame);
    }
  }

  #take(): ReusableFrame {
    while (this.#idle.length > FRAMES_BEFORE_REUSE) {
      const frame = this.#idle.shift()!;
      if (!frame.holder.stray) return frame;
    }
    return reusableFrame();
  }
}
