#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ keeps a V8 compile cache on disk, so later starts skip recompiling tau's modules. It must be
// switched on before the rest of the CLI is imported; older Node versions simply lack the function.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Extensions importing "@tau/coding-agent" get the package root, loaded only when one asks for it.
const { registerPackageRoot } = await import("./core/extensions/loader/host-modules.js");
registerPackageRoot(new URL("./index.js", import.meta.url).href, () => import("./index.js"));
const { main } = await import("./main.js");
const code = await main(process.argv.slice(2));
process.exitCode = code;
// The run is over, everything it wrote is flushed first. Whatever is still open (an idle keep-alive
// socket, which Node 20 holds for half a second; an MCP server still stopping) must not delay the exit.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
