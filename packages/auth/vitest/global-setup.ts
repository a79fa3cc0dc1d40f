import { fileURLToPath } from "node:url";
import { deployBundle } from "@svc/cli";
import { hashPassword } from "better-auth/crypto";
import type { TestProject } from "vitest/node";
import { NODE_PASSWORD } from "../test/fixture/constants.ts";
import { startSiteverifyStub } from "./siteverify-stub.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local siteverify stub. */
    siteverifyUrl: string;
    /** Source modules in `wrangler deploy`'s bundle of test/worker.ts. */
    bundleModules: string[];
    /** `NODE_PASSWORD` hashed by plain better-auth running on Node. */
    nodePasswordHash: string;
  }
}

/**
 * Node-side fixtures for the workerd tests: the siteverify stub, the deploy
 * bundle's module list, and a password hash made outside workerd.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [stub, modules, hash] = await Promise.all([
    startSiteverifyStub(),
    deployBundle(fileURLToPath(new URL("../test/wrangler.jsonc", import.meta.url))).then(
      (bundle) => bundle.modules,
    ),
    hashPassword(NODE_PASSWORD),
  ]);
  project.provide("siteverifyUrl", stub.url);
  project.provide("bundleModules", modules);
  project.provide("nodePasswordHash", hash);
  return () => stub.close();
}
