/** What the hand-written file routes need. */
export interface PlainFilesEnv {
  SVC_FILES: R2Bucket;
}

/**
 * The storage scenario's baseline: files put into and read from the same R2
 * bucket by hand, with no signing, metadata or checks. `PUT /plain-files/<name>`
 * streams the body (its `Content-Length` known) straight into R2;
 * `PUT /plain-files-buffered/<name>` reads the whole body first (what streaming
 * avoids, for the memory figure); `GET /plain-files/<name>` streams it back.
 */
export async function plainFilesRoute(
  request: Request,
  url: URL,
  env: PlainFilesEnv,
): Promise<Response> {
  const buffered = url.pathname.startsWith("/plain-files-buffered/");
  const name = url.pathname.slice(
    buffered ? "/plain-files-buffered/".length : "/plain-files/".length,
  );
  if (request.method === "PUT") {
    const body = buffered ? await request.arrayBuffer() : request.body;
    await env.SVC_FILES.put(`plain/${name}`, body, {
      httpMetadata: { contentType: request.headers.get("content-type") ?? undefined },
    });
    return Response.json({ name });
  }
  const object = await env.SVC_FILES.get(`plain/${name}`);
  if (object === null) return new Response("not found", { status: 404 });
  return new Response(object.body, {
    headers: {
      "content-type": object.httpMetadata?.contentType ?? "application/octet-stream",
      etag: object.httpEtag,
    },
  });
}
