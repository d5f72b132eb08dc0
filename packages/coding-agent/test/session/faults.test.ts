import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { READ_ONLY_WARNING, repairTornHeader } from "../../src/core/session/index.js";
import { assistant, tempDir, user } from "./helpers.js";

const CHILD = fileURLToPath(new URL("./session-child.mjs", import.meta.url));

function startChild(mode: string, file: string): ChildProcess {
	return spawn(process.execPath, [CHILD, mode, file], { stdio: ["pipe", "pipe", "inherit"] });
}

function waitForLine(child: ChildProcess, prefix: string): Promise<string> {
	return new Promise((resolve, reject) => {
		let buffer = "";
		const onData = (chunk: Buffer) => {
			buffer += chunk.toString();
			const line = buffer.split("\n").find((l) => l.startsWith(prefix));
			if (line !== undefined) {
				child.stdout!.off("data", onData);
				resolve(line);
			}
		};
		child.stdout!.on("data", onData);
		child.once("exit", (code) => reject(new Error(`child exited (${code}) before printing ${prefix}`)));
	});
}

function exited(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once("exit", () => resolve());
	});
}

/** A session file with a header and two messages, returned with its entry ids. */
function writeSession(dir: string): { file: string; ids: string[] } {
	const manager = SessionManager.create(dir, dir);
	const ids = [manager.appendMessage(user("one")), manager.appendMessage(assistant("two"))];
	manager.dispose();
	return { file: manager.getSessionFile()!, ids };
}

describe("session fault tolerance", () => {
	it("kill -9 mid-append: every complete line loads, a torn last line is skipped and reported", async () => {
		const dir = tempDir();
		const file = join(dir, "killed.jsonl");
		const child = startChild("append-loop", file);
		await waitForLine(child, "ready");
		child.kill("SIGKILL");
		await exited(child);

		const raw = readFileSync(file, "utf8");
		const completeLines = raw.split("\n").slice(0, -1);
		// The killed writer's lock is still fresh, but its recorded holder is dead: reclaimed at once.
		expect(JSON.parse(readFileSync(`${file}.lock.holder`, "utf8"))).toEqual({ pid: child.pid, hostname: hostname() });
		const manager = SessionManager.open(file);
		expect(manager.isReadOnly()).toBe(false);
		expect(manager.getEntryCount()).toBe(completeLines.length - 1);
		expect(manager.getEntryCount()).toBeGreaterThanOrEqual(20);
		const torn = !raw.endsWith("\n");
		expect(manager.getDiagnostics().some((d) => /unparseable/.test(d.message))).toBe(torn);
		const branch = manager.getBranch();
		expect(branch).toHaveLength(manager.getEntryCount());
		const next = manager.appendMessage(user("after the crash"));
		manager.dispose();
		const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(reopened.getLeafId()).toBe(next);
		expect(reopened.getEntry(next)!.parentId).toBe(branch[branch.length - 1]!.id);
	});

	it("torn final line: earlier entries load and the next entry starts on its own line", () => {
		const dir = tempDir();
		const { file, ids } = writeSession(dir);
		appendFileSync(file, '{"type":"message","id":"torn0001","parentId":');
		const manager = SessionManager.open(file);
		expect(manager.getEntries().map((e) => e.id)).toEqual(ids);
		expect(manager.getDiagnostics().some((d) => /Skipped 1 unparseable line/.test(d.message))).toBe(true);
		expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);
		const next = manager.appendMessage(user("three"));
		manager.dispose();
		const lines = readFileSync(file, "utf8").split("\n");
		expect(JSON.parse(lines[lines.length - 2]!).id).toBe(next);
		const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(reopened.getEntries().map((e) => e.id)).toEqual([...ids, next]);
	});

	it("a read-only open never repairs the torn tail", () => {
		const dir = tempDir();
		const { file } = writeSession(dir);
		appendFileSync(file, '{"half":');
		const before = readFileSync(file, "utf8");
		SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(readFileSync(file, "utf8")).toBe(before);
	});

	it("complete final line without a newline loads and gets its newline before the next write", () => {
		const dir = tempDir();
		const { file, ids } = writeSession(dir);
		const content = readFileSync(file, "utf8");
		writeFileSync(file, content.slice(0, -1));
		const manager = SessionManager.open(file);
		expect(manager.getEntries().map((e) => e.id)).toEqual(ids);
		const next = manager.appendMessage(user("three"));
		manager.dispose();
		expect(readFileSync(file, "utf8")).toBe(`${content}${readFileSync(file, "utf8").split("\n")[3]}\n`);
		expect(JSON.parse(readFileSync(file, "utf8").split("\n")[3]!).id).toBe(next);
	});

	it("a corrupt middle line is skipped; its children become orphans listed as roots", () => {
		const dir = tempDir();
		const manager = SessionManager.create(dir, dir);
		const a = manager.appendMessage(user("a"));
		manager.appendMessage(assistant("b"));
		const c = manager.appendMessage(user("c"));
		manager.dispose();
		const file = manager.getSessionFile()!;
		const lines = readFileSync(file, "utf8").split("\n");
		lines[2] = `${lines[2]!.slice(0, 20)}#corrupt#`;
		writeFileSync(file, lines.join("\n"));
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries().map((e) => e.id)).toEqual([a, c]);
		expect(reopened.getTree().map((node) => node.entry.id)).toEqual([a, c]);
		expect(reopened.getBranch().map((e) => e.id)).toEqual([c]);
		expect(reopened.getDiagnostics().some((d) => /line 3/.test(d.message))).toBe(true);
		reopened.dispose();
	});

	it("a second process gets a read-only view while the first holds the lock", async () => {
		const dir = tempDir();
		const file = join(dir, "shared.jsonl");
		const child = startChild("hold-lock", file);
		expect(await waitForLine(child, "ready")).toBe("ready writer");

		const second = SessionManager.open(file);
		expect(second.isReadOnly()).toBe(true);
		expect(second.getLockHolder()?.pid).toBe(child.pid);
		expect(second.getDiagnostics().map((d) => d.message)).toContain(READ_ONLY_WARNING);
		// The refusal names the file and the process that holds it.
		expect(() => second.appendMessage(user("intruder"))).toThrow(
			`Session ${file} is open in another process (pid ${child.pid}); opened read-only`,
		);
		expect(second.buildSessionContext().messages).toHaveLength(1);
		second.dispose();

		child.stdin!.write("release\n");
		await waitForLine(child, "released");
		await exited(child);
		const third = SessionManager.open(file);
		expect(third.isReadOnly()).toBe(false);
		third.appendMessage(user("now mine"));
		third.dispose();
		expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
	});

	it("two managers in one process: the second is read-only until the first disposes", () => {
		const dir = tempDir();
		const { file } = writeSession(dir);
		const first = SessionManager.open(file);
		const second = SessionManager.open(file);
		expect(first.isReadOnly()).toBe(false);
		expect(second.isReadOnly()).toBe(true);
		expect(existsSync(`${file}.lock.holder`)).toBe(true);
		first.dispose();
		// Releasing removes the holder record with the lock.
		expect(existsSync(`${file}.lock.holder`)).toBe(false);
		const third = SessionManager.open(file);
		expect(third.isReadOnly()).toBe(false);
		third.dispose();
	});

	it("a stale lock left by a killed process is reclaimed", () => {
		const dir = tempDir();
		const { file } = writeSession(dir);
		const lockDir = `${file}.lock`;
		mkdirSync(lockDir);
		const old = new Date(Date.now() - 120_000);
		utimesSync(lockDir, old, old);
		const manager = SessionManager.open(file);
		expect(manager.isReadOnly()).toBe(false);
		manager.appendMessage(user("reclaimed"));
		manager.dispose();
	});

	it("a fresh lock whose recorded holder is alive, or on another host, is respected", () => {
		const dir = tempDir();
		const { file } = writeSession(dir);
		mkdirSync(`${file}.lock`);
		const holder = `${file}.lock.holder`;
		// The parent of this test process is alive and not this process.
		writeFileSync(holder, JSON.stringify({ pid: process.ppid, hostname: hostname() }));
		expect(SessionManager.open(file).isReadOnly()).toBe(true);
		// A pid from another host cannot be checked from here.
		writeFileSync(holder, JSON.stringify({ pid: 2 ** 22 + 1, hostname: `${hostname()}-elsewhere` }));
		expect(SessionManager.open(file).isReadOnly()).toBe(true);
		// The same record on this host names a process that does not exist: reclaimed.
		writeFileSync(holder, JSON.stringify({ pid: 2 ** 22 + 1, hostname: hostname() }));
		const manager = SessionManager.open(file);
		expect(manager.isReadOnly()).toBe(false);
		expect(JSON.parse(readFileSync(holder, "utf8"))).toEqual({ pid: process.pid, hostname: hostname() });
		manager.dispose();
	});

	it("a fresh lock held by someone else is respected (negative control for the stale rule)", () => {
		const dir = tempDir();
		const { file } = writeSession(dir);
		mkdirSync(`${file}.lock`);
		const manager = SessionManager.open(file);
		expect(manager.isReadOnly()).toBe(true);
	});
});

describe("torn header repair", () => {
	it("writes a new file with a synthesized header and never touches the damaged original", () => {
		const dir = tempDir();
		const manager = SessionManager.create(dir, dir, { id: "sess-1" });
		const a = manager.appendMessage(user("one"));
		const b = manager.appendMessage(assistant("two"));
		manager.dispose();
		const file = manager.getSessionFile()!;
		const lines = readFileSync(file, "utf8").split("\n");
		lines[0] = lines[0]!.slice(0, 25);
		const damaged = lines.join("\n");
		writeFileSync(file, damaged);
		expect(() => SessionManager.open(file)).toThrow(/not a valid tau session/);

		const repaired = repairTornHeader(file, "/restored/cwd")!;
		expect(readFileSync(file, "utf8")).toBe(damaged);
		const reopened = SessionManager.open(repaired);
		expect(reopened.getHeader()).toMatchObject({ id: "sess-1", cwd: "/restored/cwd", version: 3 });
		expect(reopened.getHeader()!.timestamp).toBe(manager.getHeader()!.timestamp);
		expect(reopened.getEntries().map((e) => e.id)).toEqual([a, b]);
		reopened.dispose();
		expect(repairTornHeader(repaired, "/x")).toBeUndefined();
	});
});
