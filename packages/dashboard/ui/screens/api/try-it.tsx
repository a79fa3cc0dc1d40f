import { useId, useMemo, useState } from "preact/hooks";
import type { RunAnswer } from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import {
  type ActAs,
  type ActAsChoice,
  actAsName,
  RunAsPicker,
  runAsOf,
} from "../../components/run-as-picker.tsx";
import { ErrorNotice } from "../../components/states.tsx";
import { textsOf, ValueField, valuesOf } from "../../components/value-field.tsx";
import type { FieldSchema } from "../../lib/field-values.ts";
import { deref, type Schema } from "../../lib/json-schema.ts";
import type { OperationView } from "../../lib/openapi.ts";
import { RunResult } from "../functions/run-result.tsx";

/** What a try answered: status, content type and body text. */
interface Reply {
  status: number;
  type: string;
  body: string;
  ms: number;
}

interface Input {
  name: string;
  schema: FieldSchema;
  optional: boolean;
}

/** The operation's own arguments: query parameters of a GET, or the JSON body's fields. */
function inputsOf(operation: OperationView, document: Schema): { query: Input[]; body: Input[] } {
  const query = operation.parameters
    .filter((parameter) => parameter.in === "query" && !parameter.shared)
    .map((parameter) => ({
      name: parameter.name,
      schema: deref(document, parameter.schema) ?? {},
      optional: !parameter.required,
    }));
  const schema = deref(document, operation.requestBody?.schema);
  const properties = schema?.properties;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  const body =
    properties !== null && typeof properties === "object"
      ? Object.entries(properties as Record<string, unknown>).map(([name, node]) => ({
          name,
          schema: deref(document, node) ?? {},
          optional: !required.includes(name),
        }))
      : [];
  return { query, body };
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Whom an operation can be tried as: identities need the procedure behind the route. */
function kindsOf(operation: OperationView): readonly ActAs[] {
  return operation.procedure === undefined
    ? ["anonymous", "token"]
    : ["anonymous", "user", "service", "token"];
}

/**
 * "Try it" for one REST operation: its arguments as a form generated from
 * the document's schemas, an optional shard key, and whom to act as, with
 * the same picker as Functions' "Run as". Anonymous or with a pasted bearer
 * token (an organization's API key), the request goes from this page to the
 * app's own REST route without the browser's cookies, and the raw answer
 * (status and body) shows. As a user or the service, the procedure behind
 * the route runs through the admin API's run route, as Functions' "Run"
 * does (the admin API resolves the user and audits the run), and its answer
 * shows. An operation that may write (a mutation or action) asks for
 * confirmation first.
 */
export function TryIt(props: { operation: OperationView; document: Schema }) {
  const { operation } = props;
  const id = useId();
  const inputs = useMemo(() => inputsOf(operation, props.document), [operation, props.document]);
  const all = [...inputs.query, ...inputs.body];
  const [open, setOpen] = useState(false);
  const [texts, setTexts] = useState(() => textsOf(all, {}));
  const [shardKey, setShardKey] = useState("");
  const [actAs, setActAs] = useState<ActAsChoice>({ kind: "anonymous", user: "", token: "" });
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reply, setReply] = useState<Reply | null>(null);
  const [ran, setRan] = useState<RunAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [refused, setRefused] = useState<Error | null>(null);
  const data = useDataApi();
  const writes = operation.kind === "mutation" || operation.kind === "action";

  const runAsIdentity = async (procedure: string) => {
    const as = runAsOf(actAs);
    if (as === null) return;
    setBusy(true);
    setRefused(null);
    setReply(null);
    try {
      const args = valuesOf(all, texts);
      setRan(await data.run(shardKey.trim() || "default", { path: procedure, args, as }));
    } catch (error) {
      setRan(null);
      setRefused(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    const asIdentity = actAs.kind === "user" || actAs.kind === "service";
    if (operation.procedure !== undefined && asIdentity) return runAsIdentity(operation.procedure);
    setBusy(true);
    setFailure(null);
    setRan(null);
    setRefused(null);
    const token = actAs.kind === "token" ? actAs.token : "";
    const params = new URLSearchParams();
    for (const input of inputs.query) {
      const text = texts[input.name] ?? "";
      if (text !== "") params.set(input.name, text);
    }
    if (shardKey.trim() !== "") params.set("shardKey", shardKey.trim());
    const headers: Record<string, string> = { accept: "application/json" };
    if (token.trim() !== "") headers.authorization = `Bearer ${token.trim()}`;
    const init: RequestInit = {
      method: operation.method,
      headers,
      credentials: "omit",
      cache: "no-store",
    };
    if (operation.method !== "GET" && operation.method !== "HEAD") {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(valuesOf(inputs.body, texts));
    }
    const query = params.toString();
    const started = performance.now();
    try {
      const response = await fetch(`${operation.path}${query === "" ? "" : `?${query}`}`, init);
      const body = await response.text();
      setReply({
        status: response.status,
        type: response.headers.get("content-type") ?? "",
        body: pretty(body),
        ms: Math.round(performance.now() - started),
      });
    } catch {
      setReply(null);
      setFailure("Could not reach the app. Check that it is running, then try again.");
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <div class="operation-block">
        <button type="button" class="btn btn-small" onClick={() => setOpen(true)}>
          Try it
        </button>
      </div>
    );
  }
  return (
    <form
      class="operation-block try-it stack"
      aria-label={`Try ${operation.method} ${operation.path}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (busy) return;
        if (writes) setConfirming(true);
        else void send();
      }}
    >
      <h4>Try it</h4>
      {all.map((input) => (
        <ValueField
          key={input.name}
          name={input.name}
          schema={input.schema}
          optional={input.optional}
          text={texts[input.name] ?? ""}
          onInput={(text) => setTexts({ ...texts, [input.name]: text })}
        />
      ))}
      <div class="filters">
        <label class="field">
          <span class="field-label">Shard key (optional)</span>
          <input
            class="input mono"
            value={shardKey}
            onInput={(event) => setShardKey(event.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
          />
        </label>
        <RunAsPicker label="Act as" choice={actAs} onChange={setActAs} kinds={kindsOf(operation)} />
      </div>
      <div class="actions">
        <button type="button" class="btn" onClick={() => setOpen(false)}>
          Close
        </button>
        <button type="submit" class={writes ? "btn btn-danger" : "btn btn-primary"} disabled={busy}>
          {busy ? "Sending…" : writes ? "Send…" : "Send"}
        </button>
      </div>
      {failure ? (
        <p class="field-problem" role="alert">
          {failure}
        </p>
      ) : null}
      {reply ? (
        <div class="try-reply" role="status" aria-labelledby={`${id}-status`}>
          <p id={`${id}-status`}>
            <span class={reply.status < 400 ? "status status-ok" : "status status-error"}>
              {reply.status}
            </span>{" "}
            <span class="muted small">
              {reply.type} · {reply.ms} ms
            </span>
          </p>
          <pre class="code-block">{reply.body}</pre>
        </div>
      ) : null}
      {refused ? <ErrorNotice error={refused} /> : null}
      {ran ? <RunResult answer={ran} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={`Send ${operation.method} ${operation.path}?`}
          confirmLabel="Send"
          danger
          onConfirm={send}
          onClose={() => setConfirming(false)}
        >
          <p>
            This {operation.kind} may write data in the app{shardKey ? ` (shard ${shardKey})` : ""},
            acting as <strong>{actAsName(actAs)}</strong>.
          </p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
