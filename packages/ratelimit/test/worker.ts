export default { fetch: () => new Response(null, { status: 404 }) };
