import { spawnSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeBugReport } from "../../src/export/bug-report.js";
import { type CommandRunner, uploadSecretGist } from "../../src/export/gist-upload.js";
import { createZip } from "../../src/export/zip-writer.js";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;
const scratch: string[] = [];

afterEach(async () => {
	vi.unstubAllEnvs();
	await harness?.close();
	harness = undefined;
	for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	scratch.push(dir);
	return dir;
}

const GIST_URL = "https://gist.github.com/tester/0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const GIST_ID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

interface FakeGh {
	/** The argv of every invocation, in order. */
	calls(): string[][];
	/** What `gh gist create` was given to upload. */
	uploaded(): string;
}

/**
 * Puts a fake `gh` first on PATH: it records its argv, answers `auth status` with `authExit`, and
 * for `gist create` either prints a gist URL (as gh does: status on stderr, URL on stdout) or fails.
 */
function installFakeGh(options: { authExit?: number; createFails?: boolean } = {}): FakeGh {
	const dir = tempDir("tau-fake-gh-");
	const log = join(dir, "calls.log");
	const uploaded = join(dir, "uploaded.html");
	const create = options.createFails
		? `printf 'HTTP 422: Validation Failed (https://api.github.com/gists)\\n' >&2; exit 1`
		: `for a in "$@"; do last="$a"; done; cat "$last" > '${uploaded}'; printf -- '- Creating gist session.html\\n' >&2; printf '${GIST_URL}\\n'; exit 0`;
	const script = `#!/bin/sh
for a in "$@"; do printf '%s\\037' "$a" >> '${log}'; done
printf '\\n' >> '${log}'
case "$1 $2" in
"auth status")
	if [ ${options.authExit ?? 0} -ne 0 ]; then printf 'You are not logged into any GitHub hosts. To log in, run: gh auth login\\n' >&2; fi
	exit ${options.authExit ?? 0};;
"gist create")
	${create};;
esac
exit 2
`;
	const gh = join(dir, "gh");
	writeFileSync(gh, script);
	chmodSync(gh, 0o755);
	vi.stubEnv("PATH", `${dir}${delimiter}${process.env.PATH ?? ""}`);
	return {
		calls: () =>
			existsSync(log)
				? readFileSync(log, "utf8")
						.split("\n")
						.filter((line) => line !== "")
						.map((line) => line.split("\x1f").slice(0, -1))
				: [],
		uploaded: () => readFileSync(uploaded, "utf8"),
	};
}

async function startWithConversation(settings?: Record<string, unknown>): Promise<InteractiveHarness> {
	const started = await InteractiveHarness.start({ columns: 160, ...(settings ? { settings } : {}) });
	await started.answer("please look at the parser", "the parser is fine");
	return started;
}

async function confirmShare(h: InteractiveHarness): Promise<void> {
	h.submit("/share");
	const screen = await h.screen();
	expect(screen).toContain("Share this session as a secret GitHub gist?");
	expect(screen).toContain("may contain secrets");
	h.terminal.press(KEYS.down);
	h.terminal.press(KEYS.enter);
}

async function screenShows(h: InteractiveHarness, text: string): Promise<string> {
	let last = "";
	await h.until(async () => {
		last = await h.screen();
		return last.includes(text);
	});
	return last;
}

describe("/share", () => {
	it("asks first, uploads the HTML export as a secret gist through gh and shows a viewer link and the gist link", async () => {
		harness = await startWithConversation();
		vi.stubEnv("TAU_SHARE_VIEWER_URL", "");
		const gh = installFakeGh();
		await confirmShare(harness);
		const shown = await screenShows(harness, "Gist:");
		expect(shown).toContain(`Share URL: https://gistpreview.github.io/?${GIST_ID}`);
		expect(shown).toContain(`Gist: ${GIST_URL}`);

		const calls = gh.calls();
		expect(calls[0]).toEqual(["auth", "status"]);
		const create = calls[1]!;
		expect(create.slice(0, 4)).toEqual([
			"gist",
			"create",
			"--desc",
			`tau session ${harness.runtime.session.sessionId}`,
		]);
		expect(create).toHaveLength(5);
		expect(create).not.toContain("--public");
		expect(create[4]).toMatch(/session\.html$/);
		// The upload is the interactive viewer page (docs/export.md) with the conversation embedded.
		const page = gh.uploaded();
		expect(page).toContain("<!DOCTYPE html>");
		expect(page).toContain('http-equiv="Content-Security-Policy"');
		expect(page).toContain('<script id="tau-session-data" type="application/json">');
		expect(page).toContain("please look at the parser");
		// The temporary export is removed after the upload.
		expect(existsSync(create[4]!)).toBe(false);
	});

	it("links to TAU_SHARE_VIEWER_URL#<gist id> when a viewer is configured", async () => {
		harness = await startWithConversation();
		vi.stubEnv("TAU_SHARE_VIEWER_URL", "https://viewer.example/session/");
		installFakeGh();
		await confirmShare(harness);
		const screen = await screenShows(harness, "Gist:");
		expect(screen).toContain(`Share URL: https://viewer.example/session/#${GIST_ID}`);
		expect(screen).toContain(`Gist: ${GIST_URL}`);
	});

	it("runs nothing when the confirmation is declined (Cancel is the default, Escape too)", async () => {
		harness = await startWithConversation();
		const gh = installFakeGh();
		harness.submit("/share");
		expect(await harness.screen()).toContain("Share this session as a secret GitHub gist?");
		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks();
		harness.submit("/share");
		expect(await harness.screen()).toContain("Share this session as a secret GitHub gist?");
		harness.terminal.press(KEYS.escape);
		await harness.settleMicrotasks();
		expect(gh.calls()).toEqual([]);
		expect(await harness.screen()).not.toContain("Share URL");
	});

	it("says how to install gh when it is not on PATH", async () => {
		harness = await startWithConversation();
		vi.stubEnv("PATH", tempDir("tau-empty-path-"));
		await confirmShare(harness);
		const screen = await screenShows(harness, "not installed");
		expect(screen).toContain("The GitHub CLI (gh) is not installed");
		expect(screen).toContain("https://cli.github.com");
		expect(screen).not.toContain("Share URL");
	});

	it("asks for `gh auth login` when gh is not signed in, without uploading", async () => {
		harness = await startWithConversation();
		const gh = installFakeGh({ authExit: 1 });
		await confirmShare(harness);
		await screenShows(harness, "not logged in");
		expect(await harness.screen()).toContain("Run `gh auth login`, then try /share again");
		expect(gh.calls()).toEqual([["auth", "status"]]);
	});

	it("reports gh's error output when the upload fails", async () => {
		harness = await startWithConversation();
		installFakeGh({ createFails: true });
		await confirmShare(harness);
		const screen = await screenShows(harness, "Gist upload failed");
		expect(screen).toContain("Gist upload failed: HTTP 422: Validation Failed");
		expect(screen).not.toContain("Share URL");
	});

	it('refuses sessionShareDestination "radius" with a clear notice and runs nothing', async () => {
		harness = await startWithConversation({ sessionShareDestination: "radius" });
		const gh = installFakeGh();
		harness.submit("/share");
		const screen = await harness.screen();
		expect(screen).toContain("Sharing to Radius is not available");
		expect(screen).not.toContain("Share this session as a secret GitHub gist?");
		expect(gh.calls()).toEqual([]);
	});

	it("an empty session has nothing to share", async () => {
		harness = await InteractiveHarness.start();
		const gh = installFakeGh();
		harness.submit("/share");
		const screen = await harness.screen();
		expect(screen).toContain("Nothing to share yet");
		expect(screen).not.toContain("Share this session as a secret GitHub gist?");
		expect(gh.calls()).toEqual([]);
	});
});

describe("uploadSecretGist with an injected runner", () => {
	it("passes the file and description to gh and reads the URL out of gh's output", async () => {
		const calls: string[][] = [];
		const run: CommandRunner = async (command, args) => {
			calls.push([command, ...args]);
			return args[0] === "auth"
				? { exitCode: 0, stdout: "", stderr: "Logged in to github.com" }
				: { exitCode: 0, stdout: `Opening...\n${GIST_URL}.\n`, stderr: "" };
		};
		const gist = await uploadSecretGist("/tmp/x/session.html", "tau session s1", run);
		expect(gist).toEqual({ url: GIST_URL, id: GIST_ID });
		expect(calls).toEqual([
			["gh", "auth", "status"],
			["gh", "gist", "create", "--desc", "tau session s1", "/tmp/x/session.html"],
		]);
	});

	it("fails when gh succeeds without printing a gist URL", async () => {
		const run: CommandRunner = async () => ({ exitCode: 0, stdout: "done\n", stderr: "" });
		await expect(uploadSecretGist("f.html", "d", run)).rejects.toThrow("gh printed no gist URL");
	});
});

/** A minimal zip reader: the central directory, each local header, inflate, and a CRC check. */
function readZip(archive: Buffer): Map<string, string> {
	const end = archive.length - 22;
	expect(archive.readUInt32LE(end)).toBe(0x06054b50);
	const count = archive.readUInt16LE(end + 10);
	let cursor = archive.readUInt32LE(end + 16);
	const files = new Map<string, string>();
	for (let i = 0; i < count; i++) {
		expect(archive.readUInt32LE(cursor)).toBe(0x02014b50);
		const method = archive.readUInt16LE(cursor + 10);
		const crc = archive.readUInt32LE(cursor + 16);
		const compressedSize = archive.readUInt32LE(cursor + 20);
		const size = archive.readUInt32LE(cursor + 24);
		const nameLength = archive.readUInt16LE(cursor + 28);
		const extraLength = archive.readUInt16LE(cursor + 30);
		const commentLength = archive.readUInt16LE(cursor + 32);
		const offset = archive.readUInt32LE(cursor + 42);
		const name = archive.toString("utf8", cursor + 46, cursor + 46 + nameLength);
		expect(method).toBe(8);
		expect(archive.readUInt32LE(offset)).toBe(0x04034b50);
		const dataStart = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
		const data = inflateRawSync(archive.subarray(dataStart, dataStart + compressedSize));
		expect(data.length).toBe(size);
		expect(crc32(data)).toBe(crc);
		files.set(name, data.toString("utf8"));
		cursor += 46 + nameLength + extraLength + commentLength;
	}
	return files;
}

const unzipAvailable = spawnSync("unzip", ["-v"], { stdio: "ignore" }).status === 0;

describe("zip writer", () => {
	it("writes deflated, checksummed entries that read back unchanged (UTF-8 names included)", () => {
		const big = "line of text\n".repeat(500);
		const archive = createZip([
			{ name: "report.json", data: '{"a":1}' },
			{ name: "dir/übersicht.txt", data: big },
			{ name: "empty.txt", data: "" },
		]);
		const files = readZip(archive);
		expect([...files.keys()]).toEqual(["report.json", "dir/übersicht.txt", "empty.txt"]);
		expect(files.get("report.json")).toBe('{"a":1}');
		expect(files.get("dir/übersicht.txt")).toBe(big);
		expect(files.get("empty.txt")).toBe("");
		expect(archive.length).toBeLessThan(big.length);
	});

	it.skipIf(!unzipAvailable)("is accepted by unzip -t (skipped when the unzip binary is not installed)", () => {
		const dir = tempDir("tau-zip-");
		const path = join(dir, "check.zip");
		writeFileSync(
			path,
			createZip([
				{ name: "a.txt", data: "hello ".repeat(50) },
				{ name: "b/c.json", data: "{}" },
			]),
		);
		const result = spawnSync("unzip", ["-t", path], { encoding: "utf8" });
		expect(result.status).toBe(0);
		expect(result.stdout).toContain("No errors detected");
	});
});

describe("/bug", () => {
	const AUTH_SECRET = "auth-json-secret-value-should-never-leak";
	const LITERAL_KEY = "sk-literal-settings-key-0123456789";
	const OPAQUE_KEY = "Zx9QmT4vLp2RwY7sKd3NbH8cJf6G";
	const ENV_VALUE = "env-resolved-secret-value";

	const missingSkill = join(tmpdir(), "tau-bug-test-no-such-skill", "SKILL.md");

	async function startForBug(): Promise<InteractiveHarness> {
		vi.stubEnv("TERM", "xterm-test");
		vi.stubEnv("TERM_PROGRAM", "TestTerm");
		vi.stubEnv("BUG_TEST_SECRET", ENV_VALUE);
		vi.stubEnv("OPENAI_API_KEY", ENV_VALUE);
		const started = await InteractiveHarness.start({
			columns: 200,
			settings: {
				sessionShareDestination: "gist",
				myExtension: { apiKey: LITERAL_KEY, endpoint: "https://example.test", headers: ["$BUG_TEST_SECRET"] },
				provider: { token: "$BUG_TEST_SECRET", note: OPAQUE_KEY, command: "!cat ~/.secret" },
			},
			agentFiles: { "auth.json": JSON.stringify({ faux: { type: "api_key", key: AUTH_SECRET } }) },
			// A missing skill path: a loader warning the report's diagnostics should carry.
			loader: { noSkills: false, additionalSkillPaths: [missingSkill] },
		});
		await started.answer("the footer flickers when resizing", "I see");
		return started;
	}

	function readReport(h: InteractiveHarness): { path: string; files: Map<string, string> } {
		const zips = readdirSync(h.cwd).filter((name) => /^tau-bug-.+\.zip$/.test(name));
		expect(zips).toHaveLength(1);
		const path = join(h.cwd, zips[0]!);
		return { path, files: readZip(readFileSync(path)) };
	}

	function expectNoSecrets(files: Map<string, string>): void {
		const all = [...files.values()].join("\n");
		for (const secret of [AUTH_SECRET, LITERAL_KEY, OPAQUE_KEY, ENV_VALUE, "$BUG_TEST_SECRET", "!cat ~/.secret"]) {
			expect(all).not.toContain(secret);
		}
		expect([...files.keys()].some((name) => name.includes("auth"))).toBe(false);
	}

	it("writes a zip with environment, model ids, redacted settings and the description; no transcript by default", async () => {
		harness = await startForBug();
		harness.submit("/bug footer flickers");
		expect(await harness.screen()).toContain("Include the session transcript in the bug report?");
		harness.terminal.press(KEYS.enter);
		const screen = await screenShows(harness, "Bug report written to:");
		expect(screen).toContain("Nothing was uploaded");
		const { path, files } = readReport(harness);
		expect(screen.replace(/\s+/g, "")).toContain(path.replace(/\s+/g, ""));
		expect([...files.keys()].sort()).toEqual(["diagnostics.txt", "report.json", "settings.json"]);

		const report = JSON.parse(files.get("report.json")!);
		expect(report.description).toBe("footer flickers");
		expect(report.node).toBe(process.version);
		expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
		expect(report.platform).toContain(process.platform);
		expect(report.terminal).toEqual({ TERM: "xterm-test", TERM_PROGRAM: "TestTerm" });
		expect(report.model).toMatchObject({ provider: "faux", id: "faux-1" });
		expect(report.transcriptIncluded).toBe(false);

		const settings = JSON.parse(files.get("settings.json")!);
		expect(settings.global.sessionShareDestination).toBe("gist");
		expect(settings.global.myExtension).toEqual({
			apiKey: "[redacted]",
			endpoint: "https://example.test",
			headers: ["[redacted]"],
		});
		expect(settings.global.provider).toEqual({ token: "[redacted]", note: "[redacted]", command: "[redacted]" });
		expect(files.get("diagnostics.txt")).toContain(`skill error: Skill path does not exist: ${missingSkill}`);
		expectNoSecrets(files);
		expect([...files.values()].join("\n")).not.toContain("the footer flickers when resizing");
	});

	it("includes the session JSONL when chosen, and asks for a description when none is given", async () => {
		harness = await startForBug();
		harness.submit("/bug");
		expect(await harness.screen()).toContain("Describe the bug");
		harness.submit("the editor loses text");
		expect(await harness.screen()).toContain("Include the session transcript in the bug report?");
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await screenShows(harness, "Bug report written to:");
		const { files } = readReport(harness);
		expect([...files.keys()].sort()).toEqual(["diagnostics.txt", "report.json", "session.jsonl", "settings.json"]);
		expect(JSON.parse(files.get("report.json")!)).toMatchObject({
			description: "the editor loses text",
			transcriptIncluded: true,
		});
		const lines = files
			.get("session.jsonl")!
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines[0].type).toBe("session");
		expect(files.get("session.jsonl")).toContain("the footer flickers when resizing");
		expectNoSecrets(files);
	});

	it("writes nothing when the transcript question is cancelled", async () => {
		harness = await startForBug();
		harness.submit("/bug something");
		expect(await harness.screen()).toContain("Include the session transcript in the bug report?");
		harness.terminal.press(KEYS.escape);
		await harness.settleMicrotasks();
		expect(readdirSync(harness.cwd).filter((name) => name.endsWith(".zip"))).toEqual([]);
	});
});

describe("bug report location", () => {
	it("falls back to the next directory when the first does not accept the file", () => {
		const root = tempDir("tau-bug-dirs-");
		const fallback = join(root, "agent");
		mkdirSync(fallback);
		const createdAt = new Date("2026-01-02T03:04:05.678Z");
		const path = writeBugReport(
			{
				appName: "tau",
				version: "1.2.3",
				description: "d",
				settings: { global: {}, project: {} },
				diagnostics: ["skill warning: bad frontmatter"],
				env: {},
				createdAt,
			},
			[join(root, "missing"), fallback],
		);
		expect(path).toBe(join(fallback, "tau-bug-2026-01-02T03-04-05-678Z.zip"));
		expect(readZip(readFileSync(path)).get("diagnostics.txt")).toBe("skill warning: bad frontmatter\n");
	});
});
