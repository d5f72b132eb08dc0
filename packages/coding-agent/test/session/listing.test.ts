import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	encodeCwd,
	findMostRecentSession,
	importPiSessions,
	loadEntriesFromFile,
	resolveSessionArgument,
	SessionManager,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { assistant, fixture, tempDir, user } from "./helpers.js";

function session(cwd: string, dir: string, texts: string[], time: number): string {
	const manager = SessionManager.create(cwd, dir);
	texts.forEach((text, i) => {
		manager.appendMessage(i % 2 === 0 ? user(text, time + i) : assistant(text, { timestamp: time + i }));
	});
	manager.dispose();
	return manager.getSessionFile()!;
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

	it("defaults to $PI_CODING_AGENT_DIR/sessions", () => {
		const piDir = tempDir();
		mkdirSync(join(piDir, "sessions", "--x--"), { recursive: true });
		copyFileSync(fixture("bom-crlf.jsonl"), join(piDir, "sessions", "--x--", "s.jsonl"));
		const report = importPiSessions({ agentDir: tempDir(), all: true, env: { PI_CODING_AGENT_DIR: piDir } });
		expect(report.imported).toHaveLength(1);
	});
});
