import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Tests run against src/, but HTML exports read the built viewer page (docs/export.md): build it
 * once per run when its sources changed (esbuild, well under a second).
 */
export default function setup(): void {
	const script = fileURLToPath(new URL("../../../../scripts/build-export-viewer.mjs", import.meta.url));
	execFileSync(process.execPath, [script, "--if-stale"], { stdio: "inherit" });
}
