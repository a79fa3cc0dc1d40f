/** An index `applySchema` left for later: its table was too big to build it before serving. */
export interface DeferredIndex {
  table: string;
  /** The SQLite index name (`i_<table>__<name>__<hash>`), or a search index's FTS5 table (`s_…`). */
  sqlName: string;
  /** The statements that build it (`CREATE INDEX IF NOT EXISTS`, or a search index's build). */
  statement: string;
}
