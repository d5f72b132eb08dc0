import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it, vi } from "vitest";
import {
	encodeCwd,
	findMostRecentSession,
	getPiSessionsRoot,
	importPiSessions,
	loadEntriesFromFile,
	resolveSessionArgument,
} from "../../src/core/session/index.js";
import { assistant, fixture, tempDir, user } from "./helpers.js";

function session(cwd: string, dir: string, texts: string[], time: number): string {
	const manager = SessionManager.create(cwd, dir);
	texts.forEach((text, i) => {
		manager.appendMessage(i % 2 === 0 ? user(text, time + i) : assistant(text, { timestamp: time + i }));
	});
	manager.dispose();
	return manager.getSessionFile()!;
}

function toolResultMessage() {
	return {
		role: "toolResult",
		toolCallId: "c",
		toolName: "read",
		content: [{ type: "text", text: "tool text" }],
		isError: false,
		timestamp: 99_999_999_999_999,
	};
}

function age(path: string, secondsAgo: number): void {
	const t = new Date(Date.now() - secondsAgo * 1000);
	utimesSync(path, t, t);
}

describe("listing sessions", () => {
	it("lists only sessions of the cwd, newest activity first, with names and texts", async () => {
		const agentDir = tempDir();
		const dir = join(agentDir, "sessions", encodeCwd("/a-b/c"));
		const older = session("/a-b/c", dir, ["first question", "first answer"], 1_000);
		const newer = session("/a-b/c", dir, ["second question"], 5_000);
		session("/a/b-c", dir, ["colliding project"], 9_000);
		writeFileSync(join(dir, "notes.jsonl"), '{"not":"a session"}\n');
		const named = SessionManager.open(older);
		named.appendSessionInfo("Named one");
		named.dispose();

		const list = await SessionManager.list("/a-b/c", undefined, undefined, undefined, agentDir);
		expect(list.map((info) => info.path)).toEqual([newer, older]);
		expect(list[1]).toMatchObject({
			name: "Named one",
			cwd: "/a-b/c",
			messageCount: 2,
			firstMessage: "first question",
			allMessagesText: "first question first answer",
		});
		expect(list[1]!.modified.getTime()).toBe(1_001);
		const all = await SessionManager.listAll(undefined, undefined, undefined, agentDir);
		expect(all).toHaveLength(3);
	});

	it("info fields: messages of any role count, empty texts are skipped, text blocks join with a space", async () => {
		const dir = tempDir();
		const line = (value: object) => `${JSON.stringify(value)}\n`;
		const entry = (id: string, extra: object) => ({
			id,
			parentId: null,
			timestamp: "2026-02-01T00:00:00.000Z",
			...extra,
		});
		const file = join(dir, "hand-written.jsonl");
		writeFileSync(
			file,
			[
				line({ type: "session", version: 3, id: "hand", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" }),
				line(entry("e1", { type: "message", message: { role: "user", content: "", timestamp: 10 } })),
				line(
					entry("e2", {
						type: "message",
						message: {
							role: "user",
							content: [
								{ type: "image", data: "AAAA", mimeType: "image/png" },
								{ type: "text", text: "look" },
								{ type: "text", text: "here" },
							],
							timestamp: 20,
						},
					}),
				),
				line(entry("e3", { type: "message", message: toolResultMessage() })),
				// No message timestamp: the entry time counts as activity.
				line(
					entry("e4", {
						type: "message",
						message: { role: "assistant", content: [{ type: "text", text: "ok" }] },
					}),
				),
				line(entry("e5", { type: "session_info", name: "  Named  " })),
				line(entry("e6", { type: "session_info", name: "" })),
				line(entry("e7", { type: "custom", customType: "x" })),
			].join(""),
		);
		const empty = join(dir, "empty-session.jsonl");
		writeFileSync(
			empty,
			line({ type: "session", version: 3, id: "quiet", timestamp: "2026-01-05T00:00:00.000Z", cwd: "/p" }),
		);
		const [busy, quiet] = await SessionManager.list("/p", dir);
		expect(busy).toMatchObject({
			id: "hand",
			messageCount: 4,
			firstMessage: "look here",
			allMessagesText: "look here ok",
			created: new Date("2026-01-01T00:00:00.000Z"),
			modified: new Date("2026-02-01T00:00:00.000Z"),
		});
		expect(busy!.name).toBeUndefined();
		expect(quiet).toMatchObject({
			id: "quiet",
			messageCount: 0,
			firstMessage: "(no messages)",
			allMessagesText: "",
			modified: new Date("2026-01-05T00:00:00.000Z"),
		});
	});

	it("colliding cwds share the default directory but never see each other's sessions", async () => {
		const agentDir = tempDir();
		const storage = { agentDir };
		const mine = SessionManager.create("/a-b/c", undefined, {}, storage);
		mine.appendMessage(user("mine"));
		mine.dispose();
		const theirs = SessionManager.create("/a/b-c", undefined, {}, storage);
		theirs.appendMessage(user("theirs"));
		theirs.dispose();
		expect(mine.getSessionDir()).toBe(theirs.getSessionDir());
		age(mine.getSessionFile()!, 60);
		const continued = SessionManager.continueRecent("/a-b/c", undefined, storage);
		expect(continued.getSessionFile()).toBe(mine.getSessionFile());
		continued.dispose();
		const other = SessionManager.continueRecent("/a/b-c", undefined, storage);
		expect(other.getSessionFile()).toBe(theirs.getSessionFile());
		other.dispose();
		const listed = await SessionManager.list("/a-b/c", undefined, undefined, undefined, agentDir);
		expect(listed.map((info) => info.firstMessage)).toEqual(["mine"]);
	});

	it("continueRecent picks the newest file of this cwd by mtime, or creates a new session", () => {
		const dir = tempDir();
		const a = session("/p", dir, ["a"], 1);
		const b = session("/p", dir, ["b"], 2);
		const foreign = session("/q", dir, ["q"], 3);
		age(a, 10);
		age(b, 20);
		age(foreign, 0);
		const manager = SessionManager.continueRecent("/p", dir);
		expect(manager.getSessionFile()).toBe(a);
		manager.dispose();
		expect(findMostRecentSession(dir, "/p")).toBe(a);
		const fresh = SessionManager.continueRecent("/nowhere", dir);
		expect(fresh.getEntries()).toEqual([]);
		expect(fresh.getSessionFile()).not.toBe(a);
	});

	it("resolves --session arguments: path, exact id, prefix, global, not found", async () => {
		const agentDir = tempDir();
		const localDir = join(agentDir, "sessions", encodeCwd("/p"));
		const otherDir = join(agentDir, "sessions", encodeCwd("/q"));
		const local = SessionManager.create("/p", localDir, { id: "local-abc" });
		local.appendMessage(user("x"));
		local.dispose();
		const other = SessionManager.create("/q", otherDir, { id: "other-xyz" });
		other.appendMessage(user("y"));
		other.dispose();
		const where = { cwd: "/p", sessionDir: localDir, agentDir };
		expect(await resolveSessionArgument("some/file.jsonl", where)).toMatchObject({ scope: "path" });
		expect(await resolveSessionArgument("local-abc", where)).toEqual({
			path: local.getSessionFile(),
			scope: "local",
		});
		expect(await resolveSessionArgument("local-a", where)).toEqual({ path: local.getSessionFile(), scope: "local" });
		expect(await resolveSessionArgument("other-x", where)).toEqual({ path: other.getSessionFile(), scope: "global" });
		await expect(resolveSessionArgument("zzz", where)).rejects.toThrow("No session found matching 'zzz'");
	});

	it("resolution order: local exact before local prefix, local prefix before global, global exact before global prefix", async () => {
		const agentDir = tempDir();
		const localDir = join(agentDir, "sessions", encodeCwd("/p"));
		const otherDir = join(agentDir, "sessions", encodeCwd("/q"));
		const make = (cwd: string, dir: string, id: string, time: number) => {
			const manager = SessionManager.create(cwd, dir, { id });
			manager.appendMessage(user(id, time));
			manager.dispose();
			return manager.getSessionFile()!;
		};
		const exactLocal = make("/p", localDir, "abc", 1);
		make("/p", localDir, "abcdef", 9);
		const localPrefixed = make("/p", localDir, "xyz-1", 1);
		make("/q", otherDir, "xyz", 9);
		const exactGlobal = make("/q", otherDir, "glob", 1);
		make("/q", otherDir, "glob-2", 9);
		const where = { cwd: "/p", sessionDir: localDir, agentDir };
		expect(await resolveSessionArgument("abc", where)).toEqual({ path: exactLocal, scope: "local" });
		expect(await resolveSessionArgument("xyz", where)).toEqual({ path: localPrefixed, scope: "local" });
		expect(await resolveSessionArgument("glob", where)).toEqual({ path: exactGlobal, scope: "global" });
		// Anything that looks like a path is a path, even when an id matches.
		for (const arg of ["abc.jsonl", "dir\\abc", "./abc"]) {
			expect(await resolveSessionArgument(arg, where)).toMatchObject({ scope: "path" });
		}
	});

	it("aborting after a skipped non-session file leaves no descriptor open on the listed files", async () => {
		const agentDir = tempDir();
		const dir = join(agentDir, "sessions", encodeCwd("/p"));
		session("/p", dir, ["x"], 1);
		writeFileSync(join(dir, "junk.jsonl"), "not a session\n");
		age(join(dir, "junk.jsonl"), 0);
		for (let i = 0; i < 3; i++) age(session("/p", dir, ["y"], i), 100 + i);
		const controller = new AbortController();
		const promise = SessionManager.listAll(
			undefined,
			(loaded) => {
				if (loaded === 1) controller.abort(new Error("stop"));
			},
			controller.signal,
			agentDir,
		);
		await expect(promise).rejects.toThrow("stop");
		if (!existsSync("/proc/self/fd")) return;
		const open = readdirSync("/proc/self/fd").flatMap((fd) => {
			try {
				return [readlinkSync(join("/proc/self/fd", fd))];
			} catch {
				return [];
			}
		});
		expect(open.filter((target) => target.startsWith(agentDir))).toEqual([]);
	});

	it("aborting listAll rejects with the abort reason", async () => {
		const agentDir = tempDir();
		for (let i = 0; i < 5; i++) session(`/p${i}`, join(agentDir, "sessions", encodeCwd(`/p${i}`)), ["x"], i);
		const controller = new AbortController();
		const reason = new Error("stop listing");
		let seen = 0;
		const promise = SessionManager.listAll(
			undefined,
			(loaded) => {
				seen = loaded;
				if (loaded === 2) controller.abort(reason);
			},
			controller.signal,
			agentDir,
		);
		await expect(promise).rejects.toBe(reason);
		expect(seen).toBe(2);
	});
});

describe("importing pi sessions", () => {
	it("copies by header cwd, skips already-imported ids, never touches sources, migrates old copies", () => {
		const piRoot = tempDir();
		const agentDir = tempDir();
		mkdirSync(join(piRoot, "--home-ana-src-app--"));
		mkdirSync(join(piRoot, "--home-ana-old--"));
		copyFileSync(fixture("pi-v3-full.jsonl"), join(piRoot, "--home-ana-src-app--", "pi-v3-full.jsonl"));
		copyFileSync(fixture("v1-linear.jsonl"), join(piRoot, "--home-ana-old--", "v1-linear.jsonl"));
		writeFileSync(join(piRoot, "--home-ana-old--", "junk.jsonl"), "nope\n");

		const onlyApp = importPiSessions({ agentDir, piSessionsRoot: piRoot, cwd: "/home/ana/src/app" });
		expect(onlyApp.imported).toEqual([join(agentDir, "sessions", "--home-ana-src-app--", "pi-v3-full.jsonl")]);

		const report = importPiSessions({ agentDir, piSessionsRoot: piRoot, all: true });
		expect(report.imported).toEqual([join(agentDir, "sessions", "--home-ana-old--", "v1-linear.jsonl")]);
		expect(report.skipped).toEqual([join(piRoot, "--home-ana-src-app--", "pi-v3-full.jsonl")]);
		expect(report.invalid).toEqual([join(piRoot, "--home-ana-old--", "junk.jsonl")]);
		expect(loadEntriesFromFile(report.imported[0]!)[0]).toMatchObject({ version: 3 });
		expect(loadEntriesFromFile(join(piRoot, "--home-ana-old--", "v1-linear.jsonl"))[0]).not.toHaveProperty("version");

		const dry = importPiSessions({ agentDir: tempDir(), piSessionsRoot: piRoot, all: true, dryRun: true });
		expect(dry.imported).toHaveLength(2);
	});

	it("without PI_CODING_AGENT_DIR reads ~/.pi/agent/sessions", () => {
		const home = tempDir();
		vi.stubEnv("HOME", home);
		try {
			expect(getPiSessionsRoot({})).toBe(join(home, ".pi", "agent", "sessions"));
			const source = join(home, ".pi", "agent", "sessions", "--x--", "s.jsonl");
			mkdirSync(join(source, ".."), { recursive: true });
			copyFileSync(fixture("pi-v3-full.jsonl"), source);
			const before = readFileSync(source);
			const agentDir = tempDir();
			const report = importPiSessions({ agentDir, all: true, env: {} });
			expect(report.imported).toEqual([join(agentDir, "sessions", encodeCwd("/home/ana/src/app"), "s.jsonl")]);
			expect(readFileSync(source)).toEqual(before);
			expect(homedir()).toBe(home);
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it("defaults to $PI_CODING_AGENT_DIR/sessions", () => {
		const piDir = tempDir();
		mkdirSync(join(piDir, "sessions", "--x--"), { recursive: true });
		copyFileSync(fixture("bom-crlf.jsonl"), join(piDir, "sessions", "--x--", "s.jsonl"));
		const report = importPiSessions({ agentDir: tempDir(), all: true, env: { PI_CODING_AGENT_DIR: piDir } });
		expect(report.imported).toHaveLength(1);
	});
});
