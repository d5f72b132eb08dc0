import { existsSync } from "node:fs";
import { join } from "node:path";
import { type SessionInfo, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	appendVirtualModelState,
	encodeCwd,
	getDefaultSessionDir,
	getVirtualModelState,
	resolveSessionDir,
} from "../../src/core/session/index.js";
import { tempDir, user } from "./helpers.js";

describe("session locations", () => {
	it("getDefaultSessionDir creates <agentDir>/sessions/<encoded cwd>", () => {
		const agentDir = tempDir();
		const dir = getDefaultSessionDir("/home/ana/app", agentDir);
		expect(dir).toBe(join(agentDir, "sessions", "--home-ana-app--"));
		expect(existsSync(dir)).toBe(true);
	});

	it("create() defers the directory until the first message and reports whether it is the default", () => {
		const agentDir = tempDir();
		const manager = SessionManager.create("/home/ana/app", undefined, {}, { agentDir });
		expect(manager.usesDefaultSessionDir()).toBe(true);
		expect(existsSync(manager.getSessionDir())).toBe(false);
		manager.appendMessage(user("hi"));
		expect(existsSync(manager.getSessionFile()!)).toBe(true);
		manager.dispose();
		expect(SessionManager.create("/x", tempDir()).usesDefaultSessionDir()).toBe(false);
	});

	it("resolves the session dir: CLI, then environment, then settings; an untrusted project cannot redirect", () => {
		const env = { TAU_CODING_AGENT_SESSION_DIR: "/from/env" };
		const base = { cwd: "/proj", projectTrusted: false };
		expect(resolveSessionDir({ ...base, cliSessionDir: "/cli", env }).dir).toBe("/cli");
		expect(resolveSessionDir({ ...base, env, userSetting: "/user" }).dir).toBe("/from/env");
		expect(resolveSessionDir({ ...base, env: {}, userSetting: "rel" }).dir).toBe("/proj/rel");
		const untrusted = resolveSessionDir({ ...base, env: {}, userSetting: "/user", projectSetting: "/evil" });
		expect(untrusted).toEqual({
			dir: "/user",
			warnings: ["Project sessionDir ignored until the project is trusted"],
		});
		expect(resolveSessionDir({ ...base, projectTrusted: true, env: {}, projectSetting: "/proj-dir" }).dir).toBe(
			"/proj-dir",
		);
		expect(resolveSessionDir({ ...base, env: {} }).dir).toBeUndefined();
		expect(encodeCwd("/proj")).toBe("--proj--");
	});

	it("list reports progress with sorted partial lists on the first, every 10th and the last file", async () => {
		const dir = tempDir();
		for (let i = 0; i < 12; i++) {
			const manager = SessionManager.create("/p", dir);
			manager.appendMessage(user(`m${i}`, 1000 + i));
			manager.dispose();
		}
		const calls: [number, number, number | undefined][] = [];
		let lastPartial: SessionInfo[] | undefined;
		const list = await SessionManager.list("/p", dir, (loaded, total, partial) => {
			calls.push([loaded, total, partial?.length]);
			if (partial) lastPartial = partial;
		});
		expect(list).toHaveLength(12);
		expect(calls.filter(([, , n]) => n !== undefined).map(([loaded]) => loaded)).toEqual([1, 10, 12]);
		expect(calls.every(([, total]) => total === 12)).toBe(true);
		expect(lastPartial!.map((info) => info.firstMessage)).toEqual(list.map((info) => info.firstMessage));
		expect(list[0]!.firstMessage).toBe("m11");
	});
});

describe("virtual-model router state", () => {
	it("is a pi.virtual-model-state custom entry; the latest one on the branch wins", () => {
		const manager = SessionManager.inMemory("/w");
		const first = appendVirtualModelState(manager, "router", "auto", { turn: 1 });
		appendVirtualModelState(manager, "router", "other", { turn: 9 });
		appendVirtualModelState(manager, "router", "auto", { turn: 2 });
		expect(manager.getEntry(first)).toMatchObject({
			type: "custom",
			customType: "pi.virtual-model-state",
			data: { provider: "router", modelId: "auto", state: { turn: 1 } },
		});
		expect(getVirtualModelState(manager.getBranch(), "router", "auto")).toEqual({ turn: 2 });
		manager.branch(first);
		expect(getVirtualModelState(manager.getBranch(), "router", "auto")).toEqual({ turn: 1 });
		expect(manager.buildSessionContext().messages).toEqual([]);
	});
});
