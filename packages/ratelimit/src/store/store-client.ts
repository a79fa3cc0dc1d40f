import { env } from "cloudflare:workers";
import type { RateLimitResult } from "../algorithms/result.ts";
import { RateLimitError, RateLimitStoreError } from "../errors.ts";
import { within } from "./deadlines.ts";
import { type LeaseRequest, type LimitBatch, objectName } from "./protocol.ts";
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

/**
 * Why a call of the store failed after `ms` without an answer: the cause of
 * the {@link RateLimitStoreError} that {@link storeError} builds.
 *
 * @example
 * ```ts
 * storeError("api", noAnswer(1000)).message; // "... did not answer for rate \"api\": no answer within 1000 ms"
 * ```
 */
export function noAnswer(ms: number): Error {
  return new Error(`no answer within ${ms} ms`);
}

/**
 * The error a `limit` call rejects with when the store of rate `name` could
 * not answer, whatever the `cause`. The key is left out of the message: it is
 * often an IP address or an API key.
 *
 * @example
 * ```ts
 * throw storeError("api", noAnswer(1000));
 * ```
 */
export function storeError(name: string, cause: unknown): RateLimitStoreError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new RateLimitStoreError(
    `svc ratelimit: the store did not answer for rate ${JSON.stringify(name)}: ${reason}`,
    { cause },
  );
}

/**
 * Sends a batch of decisions to the store object of (`name`, `key`) and
 * answers its results, in order. Everything that can go wrong on the way (the
 * object throws or cannot be reached) becomes a {@link RateLimitStoreError};
 * a missing binding or a store declared without SQLite is a configuration
 * mistake instead, a `RateLimitError("INVALID_CONFIG")`. The key is left out
 * of error messages: it is often an IP address or an API key.
 *
 * No timeout of its own: each call of the batch waits for it on its own clock
 * (`DecisionCoalescer`), so a timer here would be one more per store call. A
 * store call that never answers is left running under its sender's
 * `waitUntil`, which the platform ends; no caller waits for it.
 *
 * @example
 * ```ts
 * const [result] = await within(callStore("RATE_LIMIT", "api", ip, { rate, decisions: [{ count: 1 }] }), 1000, late);
 * ```
 */
export async function callStore(
  store: RateLimitStoreBinding,
  name: string,
  key: string,
  batch: LimitBatch,
): Promise<RateLimitResult[]> {
  const reply = await ask(store, name, key, undefined, limitOf, batch);
  return reply.results;
}

/** A store call of a batch (module-level: no closure per call). */
function limitOf(object: DurableObjectStub<RateLimitStore>, batch: LimitBatch) {
  return object.limit(batch);
}

/** A store call of a lease request. */
function leaseOf(object: DurableObjectStub<RateLimitStore>, request: LeaseRequest) {
  return object.lease(request);
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
  return ask(store, name, key, timeout, leaseOf, request);
}

/**
 * `send(object, message)` to the store object of (`name`, `key`), answered
 * within `timeout` ms when one is given; its failures as {@link storeError},
 * a configuration mistake (no binding, no SQLite) as `INVALID_CONFIG`.
 */
async function ask<Message, Reply extends object>(
  store: RateLimitStoreBinding,
  name: string,
  key: string,
  timeout: number | undefined,
  send: (
    object: DurableObjectStub<RateLimitStore>,
    message: Message,
  ) => Promise<Reply | { misconfigured: string }>,
  message: Message,
): Promise<Reply> {
  const namespace = resolveStore(store);
  let reply: Reply | { misconfigured: string };
  try {
    // A store object that throws as it is reached (not only as it answers) is an outage too.
    const sending = send(namespace.getByName(objectName(name, key)), message);
    reply = await (timeout === undefined
      ? sending
      : within(sending, timeout, () => noAnswer(timeout)));
  } catch (cause) {
    throw storeError(name, cause);
  }
  if ("misconfigured" in reply)
    throw new RateLimitError("INVALID_CONFIG", `svc ratelimit: ${reply.misconfigured}`);
  return reply as Reply;
}
