import { openAPI } from "better-auth/plugins";
import type { AdminAuthContext } from "./environment.ts";

type Json = Record<string, unknown>;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One schema's type, in words JSON Schema knows (`date` → string date-time, `string | null` → both). */
function fixType(schema: Json): void {
  const { type } = schema;
  if (typeof type !== "string" || JSON_TYPES.has(type)) return;
  if (type === "date") {
    schema.type = "string";
    schema.format = "date-time";
    return;
  }
  const parts = type.split("|").map((part) => part.trim());
  if (parts.every((part) => JSON_TYPES.has(part))) schema.type = parts;
  else delete schema.type;
}

/** Fixes a schema in place, and every schema inside it. */
function fixSchema(schema: unknown): void {
  if (!isRecord(schema)) return;
  fixType(schema);
  if (schema.nullable === true) {
    // OpenAPI 3.0's `nullable` means nothing in 3.1 (better-auth #6691).
    const type = schema.type;
    if (typeof type === "string") schema.type = [type, "null"];
    else if (Array.isArray(type) && !type.includes("null")) schema.type = [...type, "null"];
  }
  delete schema.nullable;
  const properties = schema.properties;
  if (isRecord(properties)) {
    // A `required` list written among the properties (better-auth #5607) belongs to the object.
    if (Array.isArray(properties.required)) {
      schema.required = properties.required;
      delete properties.required;
    }
    for (const property of Object.values(properties)) fixSchema(property);
  }
  if (Array.isArray(schema.required)) {
    const known = isRecord(properties) ? Object.keys(properties) : [];
    const required = schema.required.filter(
      (name) => typeof name === "string" && known.includes(name),
    );
    if (required.length === 0) delete schema.required;
    else schema.required = [...new Set(required)];
  }
  if ("$ref" in schema) {
    for (const key of Object.keys(schema))
      if (key !== "$ref" && key !== "description") delete schema[key];
  }
  for (const key of ["items", "additionalProperties", "not"]) fixSchema(schema[key]);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) for (const member of list) fixSchema(member);
  }
}

function fixOperation(path: string, operation: Json): void {
  const parameters = Array.isArray(operation.parameters)
    ? operation.parameters.filter(isRecord)
    : [];
  const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  // Path parameters the template names but the operation does not declare (better-auth #2097), and none it does not name.
  const kept = parameters.filter(
    (parameter) => parameter.in !== "path" || templated.includes(String(parameter.name)),
  );
  for (const name of templated) {
    if (!kept.some((parameter) => parameter.in === "path" && parameter.name === name))
      kept.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  for (const parameter of kept) {
    if (parameter.in === "path") parameter.required = true;
    fixSchema(parameter.schema);
  }
  operation.parameters = kept;
  for (const holder of [
    operation.requestBody,
    ...Object.values(isRecord(operation.responses) ? operation.responses : {}),
  ]) {
    if (!isRecord(holder) || !isRecord(holder.content)) continue;
    for (const media of Object.values(holder.content)) if (isRecord(media)) fixSchema(media.schema);
  }
  const responses = isRecord(operation.responses) ? operation.responses : {};
  for (const response of Object.values(responses)) {
    if (isRecord(response) && typeof response.description !== "string") response.description = "";
  }
  if (Object.keys(responses).length === 0) operation.responses = { default: { description: "" } };
  // Most of better-auth's endpoints take a session or none; the cookie and the bearer token are alternatives.
  operation.security = [{}, { sessionCookie: [] }, { bearerAuth: [] }];
}

/**
 * The OpenAPI document of better-auth's `/api/auth/*` for the auth's
 * plugins, from better-auth's own generator (the `openAPI` plugin need not
 * be on), corrected where it is wrong: paths carry the `basePath`
 * and the server is the app's origin (the generator leaves both to a
 * `baseURL` a dynamic config does not have); the session cookie is named
 * as it is set (`better-auth.session_token`, not `apiKeyCookie`) and is an
 * alternative to the bearer token, not a second credential required with
 * it; `type: "date"`, `nullable` and misplaced `required` lists become
 * JSON Schema 2020-12 (better-auth #2097, #5607, #6250, #6691); templated
 * path parameters are declared.
 *
 * @example
 * ```ts
 * const document = await generateAuthApiOpenApi(await auth.$context, "https://app.example.com");
 * ```
 */
export async function generateAuthApiOpenApi(
  context: AdminAuthContext,
  origin: string,
): Promise<Json> {
  // better-auth's own generator, through the openAPI plugin's endpoint called as the server (no request).
  const raw: Json = await openAPI().endpoints.generateOpenAPISchema({ context });
  const basePath = (context.options.basePath ?? "/api/auth").replace(/\/$/, "");
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(isRecord(raw.paths) ? raw.paths : {})) {
    if (!isRecord(item)) continue;
    const full = `${basePath}${path}`;
    for (const method of METHODS) {
      const operation = item[method];
      if (isRecord(operation)) fixOperation(full, operation);
    }
    paths[full] = item;
  }
  const components = isRecord(raw.components) ? raw.components : {};
  for (const schema of Object.values(isRecord(components.schemas) ? components.schemas : {}))
    fixSchema(schema);
  return {
    ...raw,
    openapi: "3.1.1",
    info: {
      title: "better-auth API (/api/auth)",
      version: "1",
      description:
        "better-auth's endpoints for the plugins this app enables, as generated by better-auth and corrected by svc.",
    },
    servers: [{ url: origin }],
    security: [{}, { sessionCookie: [] }, { bearerAuth: [] }],
    components: {
      ...components,
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: context.authCookies.sessionToken.name,
          description: "better-auth's session cookie, as sign-in sets it.",
        },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "A session token (`set-auth-token`), with the bearer plugin.",
        },
      },
    },
    paths,
  };
}
