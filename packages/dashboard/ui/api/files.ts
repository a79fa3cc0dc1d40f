import {
  createRouteClient,
  type FileAdminView,
  type RouteTransport,
} from "@svc/server/routes/contract";
import { FILES_ADMIN_MANIFEST } from "./routes.generated.ts";

/** One file of a shard as the Files page lists it. */
export type FileView = FileAdminView;

/**
 * A shard's files (`/_svc/admin/files/`), derived from their declarations
 * (`filesAdminRoutes`) through the generated manifest. Uploads go through
 * {@link uploadWithProgress} instead: `fetch` reports no upload progress.
 *
 * @example const { files, cursor } = await filesApi(transport).list("room-1", null);
 */
export function filesApi(transport: RouteTransport) {
  const routes = createRouteClient(FILES_ADMIN_MANIFEST, transport);
  return {
    list: (key: string, cursor: string | null, limit: number, signal?: AbortSignal) =>
      routes.listFiles({
        params: { key },
        query: { limit, ...(cursor === null ? {} : { cursor }) },
        ...(signal ? { signal } : {}),
      }),
    download: (key: string, id: string, signal?: AbortSignal) =>
      routes.downloadFile({ params: { key, id }, ...(signal ? { signal } : {}) }),
    remove: (key: string, id: string) => routes.deleteFile({ params: { key, id } }),
  };
}

/** {@link filesApi}'s shape. */
export type FilesApi = ReturnType<typeof filesApi>;

/** The admin route a new file of shard `key` is POSTed to. */
export function uploadPath(key: string): string {
  return `${FILES_ADMIN_MANIFEST.prefix}shards/${encodeURIComponent(key)}`;
}
