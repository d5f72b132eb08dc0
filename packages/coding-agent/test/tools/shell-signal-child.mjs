// A tau-like process for the shutdown-signal tests: starts a long shell command through the real
// local shell backend, optionally with its own SIGTERM handler, then reports the command's pid.
// Usage: node shell-signal-child.mjs <with-handler|without-handler>
import { createJiti } from "jiti";

const [mode] = process.argv.slice(2);
const jiti = createJiti(import.meta.url);
const { createLocalBashOperations } = await jiti.import("../../src/core/tools/shell/local-shell.ts");

if (mode === "with-handler") {
	let signals = 0;
	process.on("SIGTERM", () => {
		// Like tau's modes: a second signal means "exit now", so a re-raised signal would cut shutdown short.
		if (++signals > 1) process.exit(9);
		// The mode's own shutdown work must get to run to the end.
		setTimeout(() => {
			process.stdout.write("shutdown complete\n");
			process.exit(7);
		}, 20);
	});
}
let announced = false;
createLocalBashOperations().exec("echo $$; exec sleep 60", process.cwd(), {
	onData(data) {
		if (announced) return;
		announced = true;
		process.stdout.write(`child ${data.toString().trim()}\n`);
	},
});
