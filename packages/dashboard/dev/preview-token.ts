/** DEV PREVIEW ONLY: the admin token of the preview worker (it guards fake data only). */
export const PREVIEW_TOKEN = "preview-only-admin-token-0123456789abcdef";
