import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now (the system picks it). Free when
 * asked, not when bound: whoever binds it next may still lose it to another
 * process.
 *
 * @example const port = await freePort();
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no free port")),
      );
    });
  });
}

/**
 * Whether `port` can be bound on `host` now: `svc dev` keeps its usual port
 * when it is free and takes another when something else holds it.
 *
 * @example if (!(await portIsFree("127.0.0.1", 8787))) port = await freePort();
 */
export async function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
