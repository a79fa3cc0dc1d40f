/**
 * A server the test scripts frame by frame, for orders a real server cannot be
 * made to produce on demand (a push that reflects a later mutation before an
 * earlier one, `applied` before the mutation's own HTTP answer). It speaks the
 * real protocol (docs/subscriptions.md): the client under test runs its real
 * socket and store code; only the network's timing is the test's.
 */
export class ScriptedServer {
  /** Subscription ids by query path, as the client subscribed. */
  readonly subscriptions = new Map<string, string>();
  /** Mutations the client sent, in order, waiting for the test to answer them. */
  readonly mutations: {
    id: string;
    args: unknown;
    answer: (value: unknown, status?: number) => void;
  }[] = [];
  #socket: EventTarget & { readyState: number } = Object.assign(new EventTarget(), {
    readyState: 0,
  });

  /** The WebSocket class to give the client. */
  readonly WebSocket = (() => {
    const server = this;
    return class ScriptedSocket extends EventTarget {
      readyState = 0;
      constructor() {
        super();
        server.#socket = this;
        queueMicrotask(() => {
          this.readyState = 1;
          this.dispatchEvent(new Event("open"));
        });
      }
      send(data: string): void {
        const frame = JSON.parse(data) as { type: string; id: string; path: string };
        if (frame.type === "subscribe") server.subscriptions.set(frame.path, frame.id);
      }
      close(): void {
        this.readyState = 3;
      }
    } as unknown as typeof WebSocket;
  })();

  /** The fetch to give the client: mutations wait until the test answers them. */
  readonly fetch = (_url: string, init: RequestInit): Promise<Response> =>
    new Promise((resolve) => {
      const headers = init.headers as Record<string, string>;
      const body = JSON.parse(String(init.body)) as { args: unknown };
      this.mutations.push({
        id: headers["x-svc-mutation-id"] ?? "",
        args: body.args,
        answer: (value, status = 200) =>
          resolve(
            new Response(JSON.stringify(status === 200 ? { value } : value), {
              status,
              headers: { "content-type": "application/json" },
            }),
          ),
      });
    });

  /** Pushes a value frame for `path`'s subscription. */
  push(path: string, value: unknown, includes: string[] = []): void {
    const id = this.subscriptions.get(path);
    const frame = { type: "value", id, value, ...(includes.length ? { includes } : {}) };
    this.#socket.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }

  /** Says every subscription reflects `mutation` now. */
  applied(mutation: string): void {
    const frame = JSON.stringify({ type: "applied", mutation });
    this.#socket.dispatchEvent(new MessageEvent("message", { data: frame }));
  }
}
