import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const HOLDER = fileURLToPath(new URL("../session/session-child.mjs", import.meta.url));

/** Another process that opens the session file and keeps its writer lock until it is killed. */
export async function holdSession(file: string): Promise<ChildProcess> {
	const child = spawn(process.execPath, [HOLDER, "hold-lock", file], { stdio: ["pipe", "pipe", "inherit"] });
	await new Promise<void>((resolve, reject) => {
		let out = "";
		child.stdout!.on("data", (chunk: Buffer) => {
			out += chunk.toString();
			if (out.includes("ready writer")) resolve();
		});
		child.once("exit", (code) => reject(new Error(`holder exited (${code}): ${out}`)));
	});
	return child;
}
