import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FooterData } from "../../src/modes/interactive/controller/footer-data.js";

function repository(branch: string): { root: string; checkout: (name: string) => void } {
	const root = mkdtempSync(join(tmpdir(), "tau-footer-data-"));
	mkdirSync(join(root, ".git"));
	const checkout = (name: string) => writeFileSync(join(root, ".git", "HEAD"), `ref: refs/heads/${name}\n`);
	checkout(branch);
	return { root, checkout };
}

/** The footer data custom footers get (docs/extensions.md): branch, statuses, usable providers, branch changes. */
describe("FooterData", () => {
	it("reports the branch, the extension statuses and the provider count", () => {
		const { root } = repository("main");
		const statuses = new Map([["ext", "busy"]]);
		const data = new FooterData(join(root), statuses, () => 3);
		expect(data.getGitBranch()).toBe("main");
		expect(data.getExtensionStatuses()).toBe(statuses);
		expect(data.getAvailableProviderCount()).toBe(3);
		expect(new FooterData(mkdtempSync(join(tmpdir(), "tau-no-git-")), statuses, () => 0).getGitBranch()).toBeNull();
	});

	it("calls onBranchChange listeners after a checkout, and not after they unsubscribe", async () => {
		const { root, checkout } = repository("main");
		const data = new FooterData(root, new Map(), () => 0);
		const changed = new Promise<string | null>((resolve) => {
			const stop = data.onBranchChange(() => {
				stop();
				resolve(data.getGitBranch());
			});
		});
		checkout("feature/x");
		expect(await changed).toBe("feature/x");
		let calls = 0;
		const stop = data.onBranchChange(() => calls++);
		stop();
		checkout("other");
		data.refresh();
		expect(calls).toBe(0);
		data.dispose();
	});

	it("follows the session to another directory", () => {
		const first = repository("one");
		const second = repository("two");
		const data = new FooterData(first.root, new Map(), () => 0);
		const seen: (string | null)[] = [];
		data.onBranchChange(() => seen.push(data.getGitBranch()));
		data.setCwd(second.root);
		expect(seen).toEqual(["two"]);
		data.dispose();
	});
});
