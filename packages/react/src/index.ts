/**
 * @svc/react — React hooks over `@svc/client`'s live-query store: live
 * queries, optimistic mutations, paginated queries and better-auth sessions.
 *
 * @packageDocumentation
 */
export {
  Authenticated,
  AuthLoading,
  type BetterAuthReactClient,
  type SvcAuthState,
  Unauthenticated,
  useSvcAuth,
} from "./auth.ts";
export { SvcProvider, type SvcProviderProps, useSvcClient } from "./context.ts";
export { useConnectionState } from "./use-connection-state.ts";
export {
  type CallHookOptions,
  type ReactMutation,
  useAction,
  useMutation,
} from "./use-mutation.ts";
export {
  type PaginatedQueryHookOptions,
  type UsePaginatedQueryResult,
  usePaginatedQuery,
} from "./use-paginated-query.ts";
export { type QueryOptions, useQuery, useQueryState } from "./use-query.ts";
export { useScheduledJob } from "./use-scheduled-job.ts";
export {
  type UploadFileState,
  type UploadStatus,
  type UseUploadFileOptions,
  useUploadFile,
} from "./use-upload-file.ts";
