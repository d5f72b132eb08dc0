#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ keeps a V8 compile cache on disk, so later starts skip recompiling tau's modules. It must be
// switched on before the rest of the CLI is imported; older Node versions simply lack the function.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import("./main.js");
process.exitCode = await main(process.argv.slice(2));
