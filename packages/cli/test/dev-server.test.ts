/**
 * `startDevServer` over real `wrangler dev`: it calls an app ready only once
 * wrangler itself is ready at the URL, never because something else answers
 * on that port (CI once ran a whole test project against another project's
 * server, until that one stopped).
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startDevServer } from "../src/index.ts";

const exampleApp = fileURLToPath(new URL("../../../examples/app/", import.meta.url));

describe("startDevServer", () => {
  it("refuses a port another server holds instead of taking that server for the app", async () => {
    const other = createServer((_, response) => response.end("not the app"));
    other.listen(0, "127.0.0.1");
    await once(other, "listening");
    const { port } = other.address() as AddressInfo;
    try {
      await expect(startDevServer({ appDir: exampleApp, port })).rejects.toThrow(
        `wrangler dev could not listen on http://127.0.0.1:${port}`,
      );
    } finally {
      other.close();
    }
  });
});
