#!/usr/bin/env node
// The `svc` bin. Installed from npm (under node_modules) it runs the compiled CLI in dist/;
// inside the svc repository it runs the TypeScript source, so no build is ever needed there.
const underNodeModules = import.meta.url.includes("/node_modules/");
await import(underNodeModules ? "../dist/bin.js" : "../src/bin.ts");
