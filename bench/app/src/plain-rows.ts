import { DurableObject } from "cloudflare:workers";

/** The hand-written baseline: a Durable Object reading one row from its own SQLite. */
export class PlainRows extends DurableObject {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS rows (id TEXT PRIMARY KEY, name TEXT NOT NULL, score REAL NOT NULL)",
    );
  }

  seed(): string {
    const id = crypto.randomUUID();
    this.ctx.storage.sql.exec(
      "INSERT INTO rows (id, name, score) VALUES (?, ?, ?)",
      id,
      "benchmark row",
      42,
    );
    return id;
  }

  /** Inserts `count` rows numbered from `from`, as `rows:fill` does in the svc shard. */
  fill(from: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.ctx.storage.sql.exec(
        "INSERT INTO rows (id, name, score) VALUES (?, ?, ?)",
        crypto.randomUUID(),
        `row ${from + i}`,
        (from + i) % 1000,
      );
    }
  }

  /** The hand-written long answer: the first 100 rows. */
  getRows(): Record<string, SqlStorageValue>[] {
    return this.ctx.storage.sql.exec("SELECT id, name, score FROM rows LIMIT 100").toArray();
  }

  getRow(id: string): Record<string, SqlStorageValue> | null {
    return (
      this.ctx.storage.sql.exec("SELECT id, name, score FROM rows WHERE id = ?", id).toArray()[0] ??
      null
    );
  }
}
