import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminConnection, DEFAULT_APP_URL } from "../src/admin-client.ts";
import { removeDevState, writeDevState } from "../src/dev-state.ts";

/**
 * How the admin commands find `svc dev` without `--url` or `SVC_URL` (issue
 * 46): the state file it writes in the app's folder, while its process runs.
 */

let app: string;
beforeEach(async () => {
  app = await mkdtemp(path.join(tmpdir(), "svc-dev-state-"));
  await writeFile(path.join(app, ".dev.vars"), "SVC_ADMIN_TOKEN=local-dev-token\nAUTH_SECRET=x\n");
});
afterEach(async () => {
  await rm(app, { recursive: true, force: true });
});

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.exit(0)"]);
  return child.pid;
}

describe("the admin commands' connection", () => {
  it("goes to the running svc dev of the app's folder, with the token of its .dev.vars", async () => {
    await writeDevState(app, { url: "http://127.0.0.1:8791", pid: process.pid });
    expect(adminConnection({ appDir: app }, {})).toEqual({
      url: "http://127.0.0.1:8791",
      token: "local-dev-token",
    });
    // A token given wins over the local one.
    expect(adminConnection({ appDir: app }, { SVC_ADMIN_TOKEN: "given" }).token).toBe("given");
  });

  it("ignores the file of a svc dev that has gone, and one removed on exit", async () => {
    await writeDevState(app, { url: "http://127.0.0.1:8791", pid: deadPid() });
    expect(adminConnection({ appDir: app }, {}).url).toBe(DEFAULT_APP_URL);
    await writeDevState(app, { url: "http://127.0.0.1:8792", pid: process.pid });
    await removeDevState(app, process.pid);
    expect(adminConnection({ appDir: app }, {}).url).toBe(DEFAULT_APP_URL);
  });

  it("never sends the local token to a URL the user named", async () => {
    await writeDevState(app, { url: "http://127.0.0.1:8791", pid: process.pid });
    expect(() => adminConnection({ appDir: app }, { SVC_URL: "https://app.example.com" })).toThrow(
      /SVC_ADMIN_TOKEN/,
    );
    expect(
      adminConnection({ appDir: app, url: "https://app.example.com", adminToken: "t" }, {}).url,
    ).toBe("https://app.example.com");
  });
});
