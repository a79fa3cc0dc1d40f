import { clientOfMutation } from "./protocol.ts";

/** A client's mutation that committed and whose re-runs have not all delivered yet. */
interface PendingMutation {
  id: string;
  clientId: string;
  /** The shard's commit count right after it committed. */
  commit: number;
}

/**
 * Which of a client's mutations a pushed value reflects. The shard counts its
 * commits; a query run that starts after commit `n` sees every commit up to
 * `n` (mutations run one at a time), so its value includes every mutation
 * numbered `n` or lower. A mutation stays pending here from its commit until
 * every re-run it caused has delivered; then the hub sends `applied` and
 * forgets it. The client drops an optimistic update per query on
 * `includes`, and everywhere on `applied`.
 *
 * @example
 * ```ts
 * const acks = new MutationAcknowledgements();
 * acks.committed("clientAAAAAAAAAAAAAA:1");
 * const seen = acks.current; // a run starting now
 * acks.includedIn("clientAAAAAAAAAAAAAA", seen); // ["clientAAAAAAAAAAAAAA:1"]
 * ```
 */
export class MutationAcknowledgements {
  #commits = 0;
  readonly #pending = new Map<string, PendingMutation>();

  /** The number of the last commit: a run starting now reflects every commit up to it. */
  get current(): number {
    return this.#commits;
  }

  /** Counts a commit; a well-formed `mutationId` becomes pending until {@link settle}. */
  committed(mutationId: string | undefined): void {
    this.#commits++;
    const clientId = mutationId === undefined ? undefined : clientOfMutation(mutationId);
    if (mutationId !== undefined && clientId !== undefined) {
      this.#pending.set(mutationId, { id: mutationId, clientId, commit: this.#commits });
    }
  }

  /** The pending mutations of `clientId` that a run started after commit `seen` reflects. */
  includedIn(clientId: string, seen: number): string[] {
    const out: string[] = [];
    for (const mutation of this.#pending.values()) {
      if (mutation.clientId === clientId && mutation.commit <= seen) out.push(mutation.id);
    }
    return out;
  }

  /** Forgets a mutation once every re-run it caused delivered; answers its client, if pending. */
  settle(mutationId: string): string | undefined {
    const clientId = this.#pending.get(mutationId)?.clientId;
    this.#pending.delete(mutationId);
    return clientId;
  }
}
