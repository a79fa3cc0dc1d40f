import { type ClientOptions, createClient, type SvcClient } from "@svc/client";
import { inject } from "vitest";

/** The test app (`test/app`) under `wrangler dev`, started by the global setup. */
export const app = { url: inject("appUrl") };

/** Frames a client's sockets sent, as the server received them (subscribe, unsubscribe). */
export interface SentFrames {
  frames: { type: string; id: string; path?: string }[];
  count(type: "subscribe" | "unsubscribe", path?: string): number;
}

/**
 * A client of the test app as `user`, over real HTTP and real WebSockets;
 * `sent` records what its sockets send (the subscriptions the server sees).
 */
export function clientFor(
  user: string,
  options: Partial<ClientOptions> = {},
): { client: SvcClient; sent: SentFrames } {
  const frames: SentFrames["frames"] = [];
  class RecordingSocket extends WebSocket {
    override send(data: string): void {
      frames.push(JSON.parse(data));
      super.send(data);
    }
  }
  const client = createClient({
    url: app.url,
    bearer: `user:${user}`,
    WebSocket: RecordingSocket,
    keepAliveMs: 300,
    ...options,
  });
  const count = (type: string, path?: string) =>
    frames.filter((frame) => frame.type === type && (path === undefined || frame.path === path))
      .length;
  return { client, sent: { frames, count } };
}

/** A unique user id per test, so tests never see each other's rows. */
export function userId(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}
