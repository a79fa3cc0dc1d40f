/**
 * A query string's names and values as `URLSearchParams` decodes them, in
 * order, flat: `[name0, value0, name1, value1, …]`.
 */
export type QueryPairs = readonly string[];

const NO_PAIRS: QueryPairs = Object.freeze([]);

/**
 * The query string split last, and its pairs: a REST call reads its query
 * twice (the shard key at admission, then its arguments), and the second
 * read of the same text answers these instead of splitting it again. Pairs
 * are a function of the text alone, and callers never change them.
 */
let lastSearch = "";
let lastPairs: QueryPairs = NO_PAIRS;

/**
 * The pairs of `url`'s query string, exactly as `url.searchParams` would
 * list them. A query without `%` or `+` (the shard key and ids of most REST
 * reads) needs no decoding: a serialized URL's query is ASCII, so its pairs
 * are its `&`-separated pieces cut at the first `=`, empty pieces skipped,
 * as the WHATWG urlencoded parser cuts them. Those are split here in
 * JavaScript; the runtime's `URLSearchParams`, which every REST call made
 * for its shard key and then walked with a callback per pair, decodes the
 * others.
 *
 * @example queryPairs(new URL("https://x.test/_svc/rest/rows/get?shardKey=a&id=rows_1")) // ["shardKey", "a", "id", "rows_1"]
 */
export function queryPairs(url: URL): QueryPairs {
  const search = url.search;
  if (search.length <= 1) return NO_PAIRS;
  if (search === lastSearch) return lastPairs;
  lastPairs = splitQuery(url, search);
  lastSearch = search;
  return lastPairs;
}

/** The pairs of `search` (`url.search`, longer than `?`), split here unless they need decoding. */
function splitQuery(url: URL, search: string): QueryPairs {
  if (search.includes("%") || search.includes("+")) return pairsOf(url.searchParams);
  const pairs: string[] = [];
  // `search` starts with "?".
  let start = 1;
  while (start < search.length) {
    let end = search.indexOf("&", start);
    if (end === -1) end = search.length;
    if (end > start) {
      const equals = search.indexOf("=", start);
      if (equals === -1 || equals > end) pairs.push(search.slice(start, end), "");
      else pairs.push(search.slice(start, equals), search.slice(equals + 1, end));
    }
    start = end + 1;
  }
  return pairs;
}

/**
 * The pairs of decoded parameters, for a query that needs decoding or
 * parameters built by hand.
 *
 * @example pairsOf(new URLSearchParams("a=1&b=x%20y")) // ["a", "1", "b", "x y"]
 */
export function pairsOf(params: URLSearchParams): QueryPairs {
  const pairs: string[] = [];
  params.forEach((value, name) => {
    pairs.push(name, value);
  });
  return pairs;
}
