/**
 * What the bench worker's isolate did besides answering, counted since it
 * started: rate-limit store calls (decisions and leases), better-auth
 * session reads and revocation log reads. The gates scenario reads them
 * around each round (`GET /bench/counters`) and reports them per 1,000
 * requests: a leased gate should call its store once per lease, and a
 * cached identity should read neither the session table nor the log per
 * request. Locally the worker, its Durable Objects and D1's client share an
 * isolate, so one module's counters see them all.
 *
 * @example
 * ```ts
 * counters.storeCalls++;
 * ```
 */
export const counters = { storeCalls: 0, sessionReads: 0, revocationReads: 0 };

/**
 * `GET /bench/counters`: {@link counters} as JSON.
 *
 * @example
 * ```ts
 * if (url.pathname === "/bench/counters") return countersResponse();
 * ```
 */
export function countersResponse(): Response {
  return Response.json(counters);
}

/**
 * A D1 binding that counts the session and revocation log reads prepared on
 * it (by the table the SQL reads), and is the binding itself otherwise.
 *
 * @example
 * ```ts
 * database: svcDatabaseAdapter(countingD1(env.AUTH_DB)),
 * ```
 */
export function countingD1(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          if (/^\s*select\b/i.test(sql)) {
            if (sql.includes('"svc_revocation"')) counters.revocationReads++;
            else if (/from\s+"?session"?(\s|$)/i.test(sql)) counters.sessionReads++;
          }
          return target.prepare(sql);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
