/** The admin token of the bench variants whose admin API a scenario reads (imported by Node-side scenarios too). */
export const BENCH_ADMIN_TOKEN = "bench-admin-token-0123456789abcdef0123";
