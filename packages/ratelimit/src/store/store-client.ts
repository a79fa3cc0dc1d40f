import { env } from "cloudflare:workers";
import type { RateLimitResult } from "../algorithms/result.ts";
import { RateLimitError, RateLimitStoreError } from "../errors.ts";
import { type LeaseRequest, type LimitRequest, objectName } from "./protocol.ts";
import type { RateLimitStore } from "./rate-limit-store.ts";

/**
 * The store option: the {@link RateLimitStore} namespace binding, or its name
 * in `env`. A name lets the limiter be built at module scope, before any
 * request has brought an `env`.
 *
 * @example
 * ```ts
 * const store: RateLimitStoreBinding = "RATE_LIMIT"; // or env.RATE_LIMIT
 * ```
 */
export type RateLimitStoreBinding = DurableObjectNamespace<RateLimitStore> | string;

/**
 * True for a value shaped like a Durable Object namespace binding: the check
 * that turns a wrong `store` into a clear error instead of a TypeError later.
 *
 * @example
 * ```ts
 * isNamespace(env.RATE_LIMIT); // true
 * isNamespace("RATE_LIMIT"); // false
 * ```
 */
export function isNamespace(value: unknown): value is DurableObjectNamespace<RateLimitStore> {
  return (
    typeof value === "object" &&
    value !== null &&
    "getByName" in value &&
    typeof value.getByName === "function"
  );
}

function resolveStore(store: RateLimitStoreBinding): DurableObjectNamespace<RateLimitStore> {
  if (typeof store !== "string") return store;
  const bindings: object = env;
  const binding = (bindings as Record<string, unknown>)[store];
  if (!isNamespace(binding))
    throw new RateLimitError(
      "INVALID_CONFIG",
      `svc ratelimit: env has no Durable Object namespace binding named ${JSON.stringify(store)} (store)`,
    );
  return binding;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends one request to the store object of (`name`, `key`). Everything that
 * can go wrong on the way (the object throws, cannot be reached, or is slower
 * than `timeout` ms) becomes a {@link RateLimitStoreError}; a missing binding
 * or a store declared without SQLite is a configuration mistake instead, a
 * `RateLimitError("INVALID_CONFIG")`. The key is
 * left out of error messages: it is often an IP address or an API key.
 *
 * @example
 * ```ts
 * await callStore("RATE_LIMIT", "api", ip, { rate, count: 1 }, 1000);
 * ```
 */
export async function callStore(
  store: RateLimitStoreBinding,
  name: string,
  key: string,
  request: LimitRequest,
  timeout: number,
): Promise<RateLimitResult> {
  const reply = await ask(store, name, timeout, (object) => object.limit(request), key);
  return reply.result;
}

/**
 * Asks the store of (`name`, `key`) for a lease (the leased mode), with the
 * same error handling as {@link callStore}.
 *
 * @example
 * ```ts
 * const { granted } = await callLease("RATE_LIMIT", "api", ip, { rate, units: 10, minimum: 1 }, 1000);
 * ```
 */
export async function callLease(
  store: RateLimitStoreBinding,
  name: string,
  key: string,
  request: LeaseRequest,
  timeout: number,
): Promise<{ granted: number; result: RateLimitResult }> {
  return ask(store, name, timeout, (object) => object.lease(request), key);
}

async function ask<Reply extends object>(
  store: RateLimitStoreBinding,
  name: string,
  timeout: number,
  send: (object: DurableObjectStub<RateLimitStore>) => Promise<Reply | { misconfigured: string }>,
  key: string,
): Promise<Reply> {
  const namespace = resolveStore(store);
  const call = async () => send(namespace.getByName(objectName(name, key)));
  let reply: Reply | { misconfigured: string };
  try {
    reply = await withTimeout(call(), timeout);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new RateLimitStoreError(
      `svc ratelimit: the store did not answer for rate ${JSON.stringify(name)}: ${reason}`,
      { cause },
    );
  }
  if ("misconfigured" in reply)
    throw new RateLimitError("INVALID_CONFIG", `svc ratelimit: ${reply.misconfigured}`);
  return reply as Reply;
}
