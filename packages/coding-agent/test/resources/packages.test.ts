import { join } from "node:path";
import { DefaultResourceLoader, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	collectPackageResources,
	extensionPackageUpdates,
	PackageResolver,
	packageInstallLocation,
	parsePackageSource,
} from "../../src/core/resources/index.js";
import { fakeExtensionLoader, resourceDirs, skillFile, write, writeJson } from "./helpers.js";

function enabledPaths(records: { path: string; enabled: boolean }[]): string[] {
	return records.filter((record) => record.enabled).map((record) => record.path);
}

describe("package sources", () => {
	const base = "/base";

	it("parses npm specs and tells exact versions from ranges and tags", () => {
		expect(parsePackageSource("npm:@acme/tools@2.1.0", base)).toEqual({
			kind: "npm",
			identity: "npm:@acme/tools",
			name: "@acme/tools",
			version: "2.1.0",
			pinned: true,
		});
		expect(parsePackageSource("npm:tools", base)).toEqual({
			kind: "npm",
			identity: "npm:tools",
			name: "tools",
			pinned: false,
		});
		for (const range of ["^2.1.0", "~2.1.0", "2.x", ">=1.0.0", "latest"]) {
			expect(parsePackageSource(`npm:tools@${range}`, base)).toMatchObject({ version: range, pinned: false });
		}
		expect(parsePackageSource("npm:tools@1.0.0-beta.2", base)).toMatchObject({ pinned: true });
	});

	it("parses git forms into host, path, ref and clone URL", () => {
		expect(parsePackageSource("git:github.com/acme/tools@v2", base)).toEqual({
			kind: "git",
			identity: "git:github.com/acme/tools",
			host: "github.com",
			path: "acme/tools",
			ref: "v2",
			repo: "https://github.com/acme/tools",
			pinned: true,
		});
		expect(parsePackageSource("git:git@github.com:acme/tools.git@main", base)).toMatchObject({
			identity: "git:github.com/acme/tools",
			ref: "main",
			repo: "git@github.com:acme/tools",
		});
		expect(parsePackageSource("https://gitlab.com/group/sub/repo.git", base)).toMatchObject({
			identity: "git:gitlab.com/group/sub/repo",
			repo: "https://gitlab.com/group/sub/repo",
			pinned: false,
		});
		expect(parsePackageSource("ssh://git@github.com/acme/tools@abc1234", base)).toMatchObject({
			identity: "git:github.com/acme/tools",
			repo: "ssh://git@github.com/acme/tools",
			ref: "abc1234",
		});
		expect(parsePackageSource("github:acme/tools@main", base)).toMatchObject({
			identity: "git:github.com/acme/tools",
			repo: "https://github.com/acme/tools",
			ref: "main",
		});
		expect(parsePackageSource("git:localhost/acme/tools", base)).toMatchObject({ kind: "git", host: "localhost" });
	});

	it("treats ssh and https URLs of one repository as the same package", () => {
		const ssh = parsePackageSource("git:git@github.com:acme/tools", base);
		const https = parsePackageSource("https://github.com/acme/tools.git", base);
		expect(ssh.identity).toBe(https.identity);
	});

	it("rejects unsafe or malformed git sources, which fall back to local paths", () => {
		for (const source of [
			"git:github.com/acme/../../etc",
			"git:github.com/only-one-segment",
			"git:github.com/acme/bad%zzescape",
			"git:nohost/acme/tools",
			"https://github.com/acme\\tools/x",
		]) {
			expect(parsePackageSource(source, base).kind).toBe("local");
		}
		expect(parsePackageSource("./tools", base)).toMatchObject({ kind: "local", path: "/base/tools" });
		expect(parsePackageSource("file:///abs/pkg", base)).toMatchObject({ kind: "local", path: "/abs/pkg" });
	});
});

describe("install locations", () => {
	const dirs = { agentDir: "/home/ana/.tau/agent", cwd: "/work/app", projectTrusted: true };
	const npm = parsePackageSource("npm:@acme/tools@1.0.0", "/") as Exclude<
		ReturnType<typeof parsePackageSource>,
		{ kind: "local" }
	>;
	const git = parsePackageSource("git:github.com/acme/tools@v1", "/") as Exclude<
		ReturnType<typeof parsePackageSource>,
		{ kind: "local" }
	>;

	it("places packages per scope", () => {
		expect(packageInstallLocation(npm, "user", dirs).path).toBe("/home/ana/.tau/agent/npm/node_modules/@acme/tools");
		expect(packageInstallLocation(npm, "project", dirs).path).toBe("/work/app/.tau/npm/node_modules/@acme/tools");
		expect(packageInstallLocation(git, "user", dirs).path).toBe("/home/ana/.tau/agent/git/github.com/acme/tools");
		expect(packageInstallLocation(git, "project", dirs).path).toBe("/work/app/.tau/git/github.com/acme/tools");
		expect(packageInstallLocation(npm, "temporary", dirs).path).toMatch(
			/^\/home\/ana\/\.tau\/agent\/tmp\/extensions\/npm\/[0-9a-f]{8}\/node_modules\/@acme\/tools$/,
		);
		expect(packageInstallLocation(git, "temporary", dirs).path).toMatch(
			/^\/home\/ana\/\.tau\/agent\/tmp\/extensions\/git-github\.com\/[0-9a-f]{8}\/acme\/tools$/,
		);
	});

	it("gives each temporary ref its own folder", () => {
		const other = parsePackageSource("git:github.com/acme/tools@v2", "/") as typeof git;
		expect(packageInstallLocation(other, "temporary", dirs).path).not.toBe(
			packageInstallLocation(git, "temporary", dirs).path,
		);
		expect(packageInstallLocation(git, "temporary", dirs).path).toBe(
			packageInstallLocation(git, "temporary", dirs).path,
		);
	});

	it("refuses paths outside the install root and project storage of an untrusted project", () => {
		const escaping = parsePackageSource("npm:../../../evil", "/") as typeof npm;
		expect(() => packageInstallLocation(escaping, "user", dirs)).toThrow(
			/^Refusing to use path outside package install root: /,
		);
		expect(() => packageInstallLocation(npm, "project", { ...dirs, projectTrusted: false })).toThrow(
			"Project is not trusted; refusing to access project package storage",
		);
	});
});

describe("package contents", () => {
	it("prefers the tau manifest over pi without merging them", () => {
		const { root } = resourceDirs();
		const pkg = join(root, "pkg");
		writeJson(join(pkg, "package.json"), {
			tau: { extensions: ["./tau.ts"] },
			pi: { extensions: ["./pi.ts"], skills: ["./s"] },
		});
		const tau = write(join(pkg, "tau.ts"), "");
		write(join(pkg, "pi.ts"), "");
		skillFile(join(pkg, "s"), "pi-skill");
		const resources = collectPackageResources(pkg);
		expect(enabledPaths(resources.extensions)).toEqual([tau]);
		expect(resources.skills).toEqual([]);
	});

	it("falls back to conventional folders when the manifest holds only metadata", () => {
		const { root } = resourceDirs();
		const pkg = join(root, "pkg");
		writeJson(join(pkg, "package.json"), { pi: { changelogPath: "NEWS.md", image: "x.png" } });
		const changelog = write(join(pkg, "NEWS.md"), "## 1.0.0");
		const ext = write(join(pkg, "extensions", "main.ts"), "");
		const prompt = write(join(pkg, "prompts", "nested", "p.md"), "p");
		const theme = write(join(pkg, "themes", "t.json"), "{}");
		const skill = skillFile(join(pkg, "skills"), "conventional");
		const resources = collectPackageResources(pkg);
		expect(enabledPaths(resources.extensions)).toEqual([ext]);
		expect(enabledPaths(resources.prompts)).toEqual([prompt]);
		expect(enabledPaths(resources.themes)).toEqual([theme]);
		expect(enabledPaths(resources.skills)).toEqual([skill]);
		expect(resources.changelogPath).toBe(changelog);
	});

	it("expands manifest globs without dot segments, allows exact dot paths, and applies !/+/- entries", () => {
		const { root } = resourceDirs();
		const pkg = join(root, "pkg");
		writeJson(join(pkg, "package.json"), {
			pi: { extensions: ["lib/*.ts", "./.hidden/exact.ts", "!lib/skip*.ts", "+lib/skip-but-keep.ts", "-lib/b.ts"] },
		});
		const a = write(join(pkg, "lib", "a.ts"), "");
		write(join(pkg, "lib", "b.ts"), "");
		write(join(pkg, "lib", "skip-me.ts"), "");
		const kept = write(join(pkg, "lib", "skip-but-keep.ts"), "");
		write(join(pkg, "lib", ".dot", "hidden.ts"), "");
		const exact = write(join(pkg, ".hidden", "exact.ts"), "");
		expect(enabledPaths(collectPackageResources(pkg).extensions).sort()).toEqual([a, kept, exact].sort());
	});

	it("narrows with settings filters: omitted keeps all, [] keeps none, patterns select; never beyond the package", () => {
		const { root } = resourceDirs();
		const pkg = join(root, "pkg");
		const one = skillFile(join(pkg, "skills"), "one");
		const two = skillFile(join(pkg, "skills"), "two");
		const outside = skillFile(root, "outside");
		const prompt = write(join(pkg, "prompts", "p.md"), "p");
		const filtered = collectPackageResources(pkg, { source: pkg, skills: ["two", outside], prompts: [] });
		expect(filtered.skills).toEqual([
			{ path: one, enabled: false },
			{ path: two, enabled: true },
		]);
		expect(filtered.prompts).toEqual([{ path: prompt, enabled: false }]);
		expect(enabledPaths(collectPackageResources(pkg, { source: pkg }).skills)).toEqual([one, two]);
	});

	it("ignores a changelogPath that leaves the package", () => {
		const { root } = resourceDirs();
		const pkg = join(root, "pkg");
		write(join(root, "CHANGELOG.md"), "outside");
		writeJson(join(pkg, "package.json"), { pi: { changelogPath: "../CHANGELOG.md", extensions: [] } });
		expect(collectPackageResources(pkg).changelogPath).toBeUndefined();
	});
});

describe("package resolution", () => {
	it("lets a project entry replace the user's entry for the same package", () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const pkg = join(root, "shared-pkg");
		const first = skillFile(join(pkg, "skills"), "first");
		skillFile(join(pkg, "skills"), "second");
		writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
		writeJson(join(cwd, ".tau", "settings.json"), { packages: [{ source: pkg, skills: ["first"] }] });
		const resolver = new PackageResolver({
			cwd,
			agentDir,
			homeDir: home,
			settings: SettingsManager.create(cwd, agentDir),
		});
		const skills = resolver.resolve().resolved.skills;
		expect(skills.map((entry) => [entry.path, entry.enabled, entry.metadata.scope])).toEqual([
			[first, true, "project"],
			[join(pkg, "skills", "second", "SKILL.md"), false, "project"],
		]);
	});

	it("applies an autoload:false project delta only to the resources it names", () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const pkg = join(root, "user-pkg");
		const a = skillFile(join(pkg, "skills"), "a");
		const b = skillFile(join(pkg, "skills"), "b");
		const c = skillFile(join(pkg, "skills"), "c");
		writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
		writeJson(join(cwd, ".tau", "settings.json"), {
			packages: [{ source: pkg, autoload: false, skills: ["-skills/b"] }],
		});
		const resolver = new PackageResolver({
			cwd,
			agentDir,
			homeDir: home,
			settings: SettingsManager.create(cwd, agentDir),
		});
		const skills = resolver.resolve().resolved.skills;
		expect(skills.map((entry) => [entry.path, entry.enabled, entry.metadata.scope])).toEqual([
			[b, false, "project"],
			[a, true, "user"],
			[c, true, "user"],
		]);
	});

	it("resolves an npm project delta inside the user's install and never installs it for the project", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const installed = join(agentDir, "npm", "node_modules", "demo-pkg");
		writeJson(join(installed, "package.json"), { name: "demo-pkg", version: "1.0.0" });
		const a = skillFile(join(installed, "skills"), "a");
		const b = skillFile(join(installed, "skills"), "b");
		writeJson(join(agentDir, "settings.json"), { packages: ["npm:demo-pkg"] });
		writeJson(join(cwd, ".tau", "settings.json"), {
			packages: [{ source: "npm:demo-pkg", autoload: false, skills: ["-skills/b"] }],
		});
		const resolver = new PackageResolver({
			cwd,
			agentDir,
			homeDir: home,
			settings: SettingsManager.create(cwd, agentDir, { projectTrusted: true }),
		});
		const { resolved, diagnostics } = resolver.resolve();
		expect(diagnostics).toEqual([]);
		expect(resolved.skills.map((entry) => [entry.path, entry.enabled, entry.metadata.scope])).toEqual([
			[b, false, "project"],
			[a, true, "user"],
		]);
		expect(resolver.missingPackages([])).toEqual([]);
		expect(resolver.configuredPackages().map((entry) => [entry.source, entry.scope])).toEqual([
			["npm:demo-pkg", "user"],
		]);
	});

	it("treats a local directory that offers nothing as a single extension", () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const pkg = join(root, "bare-ext");
		write(join(pkg, "index.ts"), "");
		writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
		const resolver = new PackageResolver({
			cwd,
			agentDir,
			homeDir: home,
			settings: SettingsManager.create(cwd, agentDir),
		});
		expect(resolver.resolve().resolved.extensions.map((entry) => entry.path)).toEqual([pkg]);
	});

	it("resolves project packages only when the project is trusted", () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const pkg = join(root, "project-pkg");
		write(join(pkg, "extensions", "x.ts"), "");
		writeJson(join(cwd, ".tau", "settings.json"), { packages: [pkg] });
		const resolve = (projectTrusted: boolean) =>
			new PackageResolver({
				cwd,
				agentDir,
				homeDir: home,
				settings: SettingsManager.create(cwd, agentDir, { projectTrusted }),
			}).resolve().resolved.extensions;
		expect(resolve(true)).toHaveLength(1);
		expect(resolve(false)).toEqual([]);
	});
});

describe("host packages in dependencies", () => {
	it("warns once per package naming tau and pi host packages listed under dependencies", async () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const bad = join(root, "bad-pkg");
		writeJson(join(bad, "package.json"), {
			name: "bad",
			dependencies: { "@tau/ai": "1.0.0", "@earendil-works/pi-tui": "^1", "left-pad": "1" },
			peerDependencies: { typebox: "*" },
		});
		write(join(bad, "extensions", "a.ts"), "");
		write(join(bad, "extensions", "b.ts"), "");
		const good = join(root, "good-pkg");
		writeJson(join(good, "package.json"), { name: "good", peerDependencies: { "@tau/coding-agent": "*" } });
		write(join(good, "extensions", "c.ts"), "");
		writeJson(join(agentDir, "settings.json"), { packages: [bad, good] });
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: home,
			loadExtensions: fakeExtensionLoader().load,
		});
		await loader.reload();
		expect(loader.getExtensions().extensions).toHaveLength(3);
		expect(loader.getExtensions().warnings).toEqual([
			{
				type: "warning",
				message: expect.stringMatching(
					/^Extension package ".*bad-pkg" lists @tau\/ai, @earendil-works\/pi-tui under "dependencies"/,
				),
				path: join(bad, "package.json"),
			},
		]);
	});
});

describe("package changelogs", () => {
	function changelogSetup(options: { extension?: boolean } = {}) {
		const { root, cwd, agentDir, home } = resourceDirs();
		const pkg = join(root, "pkg");
		writeJson(join(pkg, "package.json"), { name: "acme-tools", version: "1.2.0" });
		if (options.extension !== false) write(join(pkg, "extensions", "tool.ts"), "");
		else skillFile(join(pkg, "skills"), "only-skill");
		write(
			join(pkg, "CHANGELOG.md"),
			"# Changelog\n\n## [1.2.0] - 2026-01-02\n- New thing\n\n## Unreleased notes\n- ignored\n\n## 1.1.0\n- Older thing\n\n## [1.0.0]\n- First\n",
		);
		writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
		const versions = new Map<string, string>();
		let collapse = false;
		const store = {
			getExtensionChangelogVersion: (key: string) => versions.get(key),
			setExtensionChangelogVersion: (key: string, version: string) => versions.set(key, version),
			getCollapseChangelog: () => collapse,
		};
		const key = JSON.stringify({ source: pkg, scope: "user" });
		const sources = async () => {
			const loader = new DefaultResourceLoader({
				cwd,
				agentDir,
				homeDir: home,
				loadExtensions: fakeExtensionLoader().load,
			});
			await loader.reload();
			return loader.getExtensions().extensions.map((extension) => extension.sourceInfo);
		};
		return { pkg, store, versions, key, sources, setCollapse: (value: boolean) => (collapse = value) };
	}

	it("records the version on first sight without showing anything, then shows newer entries once", async () => {
		const { store, versions, key, sources } = changelogSetup();
		expect(extensionPackageUpdates(await sources(), store)).toBeUndefined();
		expect(versions.get(key)).toBe("1.2.0");
		versions.set(key, "1.0.0");
		expect(extensionPackageUpdates(await sources(), store)).toBe(
			"## acme-tools [1.2.0] - 2026-01-02\n- New thing\n\n## acme-tools 1.1.0\n- Older thing",
		);
		expect(versions.get(key)).toBe("1.2.0");
		expect(extensionPackageUpdates(await sources(), store)).toBeUndefined();
	});

	it("collapses to one line per package and resets an unusable stored version", async () => {
		const { store, versions, key, sources, setCollapse } = changelogSetup();
		versions.set(key, "1.1.0-beta.1");
		setCollapse(true);
		expect(extensionPackageUpdates(await sources(), store)).toBe("Updated acme-tools to v1.2.0.");
		versions.set(key, "latest");
		expect(extensionPackageUpdates(await sources(), store)).toBeUndefined();
		expect(versions.get(key)).toBe("1.2.0");
	});

	it("never shows a changelog for a package without extensions", async () => {
		const { store, versions, sources } = changelogSetup({ extension: false });
		expect(await sources()).toEqual([]);
		expect(extensionPackageUpdates(await sources(), store)).toBeUndefined();
		expect(versions.size).toBe(0);
	});
});
