// A second tau process for fault tests: loads the real SessionManager from src through jiti.
// Usage: node session-child.mjs <mode> <file> ; modes: append-loop | hold-lock
import { createJiti } from "jiti";

const [mode, file] = process.argv.slice(2);
const jiti = createJiti(import.meta.url);
const { SessionManager } = await jiti.import("../../src/core/session/index.ts");

const manager = SessionManager.open(file, undefined, "/child");
if (mode === "append-loop") {
	const padding = "x".repeat(4000);
	let n = 0;
	for (;;) {
		manager.appendMessage({ role: "user", content: `message ${n} ${padding}`, timestamp: Date.now() });
		n++;
		if (n === 20) process.stdout.write("ready\n");
	}
} else if (mode === "hold-lock") {
	manager.appendMessage({ role: "user", content: "child holds the lock", timestamp: Date.now() });
	process.stdout.write(`ready ${manager.isReadOnly() ? "read-only" : "writer"}\n`);
	process.stdin.on("data", () => {
		manager.dispose();
		process.stdout.write("released\n");
		process.exit(0);
	});
}
