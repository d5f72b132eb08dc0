import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fuzzyFilter } from "../text/fuzzy.js";
import {
	type AutocompleteItem,
	type AutocompleteProvider,
	type AutocompleteSuggestions,
	type CompletionResult,
	isSlashCommandNameContext,
	isTokenBoundary,
	type SlashCommand,
} from "./autocomplete.js";

const MAX_RESULTS = 50;
const FALLBACK_SCAN_LIMIT = 5000;
const NEEDS_QUOTES = /[\s\u3000-\u303f\uff00-\uffef]/;

function quoteIfNeeded(p: string, at: boolean): string {
	const quoted = NEEDS_QUOTES.test(p) ? `"${p}"` : p;
	return at ? `@${quoted}` : quoted;
}

/** Slash commands, `@` file references and Tab path completion. */
export class CombinedAutocompleteProvider implements AutocompleteProvider {
	readonly triggerCharacters = ["@"];

	constructor(
		private readonly commands: readonly SlashCommand[],
		private readonly basePath: string,
		private readonly fdPath?: string,
	) {}

	async getSuggestions(
		lines: readonly string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null> {
		const line = lines[cursorLine] ?? "";
		const before = line.slice(0, cursorCol);
		if (isSlashCommandNameContext(lines, cursorLine, cursorCol)) return this.commandNames(before.trimStart());
		const commandArgs = cursorLine === 0 ? /^\s*\/(\S+)\s(.*)$/.exec(before) : null;
		if (commandArgs) {
			const command = this.commands.find((c) => c.name === commandArgs[1]);
			if (command?.getArgumentCompletions) {
				const items = await command.getArgumentCompletions(commandArgs[2]!);
				return items && items.length > 0 ? { items, prefix: commandArgs[2]! } : null;
			}
		}
		const at = /@(?:"([^"]*)|(\S*))$/.exec(before);
		if (at && isTokenBoundary(before.slice(0, at.index))) {
			const query = at[1] ?? at[2] ?? "";
			const items = await this.findFiles(query, options.signal);
			return { items, prefix: at[0] };
		}
		if (options.force) {
			const token = /(\S*)$/.exec(before)![1]!;
			const items = this.completePath(token);
			return items.length > 0 ? { items, prefix: token } : null;
		}
		return null;
	}

	applyCompletion(
		lines: readonly string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult {
		const line = lines[cursorLine] ?? "";
		const start = cursorCol - prefix.length;
		const isCommandName = isSlashCommandNameContext(lines, cursorLine, cursorCol);
		// A completed command name or `@file` is followed by a space, so typing continues; a directory is not.
		const isFileReference = prefix.startsWith("@") && !item.value.replace(/"$/, "").endsWith("/");
		const insert = isCommandName || isFileReference ? `${item.value} ` : item.value;
		const next = [...lines];
		next[cursorLine] = line.slice(0, start) + insert + line.slice(cursorCol);
		return { lines: next, cursorLine, cursorCol: start + insert.length };
	}

	private commandNames(typed: string): AutocompleteSuggestions | null {
		const query = typed.slice(1);
		const byName = (c: SlashCommand) => (c.name.startsWith("skill:") ? c.name.slice(6) : c.name);
		const primary = fuzzyFilter(this.commands, query, byName);
		const rest = fuzzyFilter(this.commands, query, (c) => c.name).filter((c) => !primary.includes(c));
		const items = [...primary, ...rest].map((c) => ({
			value: `/${c.name}`,
			label: c.name,
			...(c.description || c.argumentHint
				? { description: c.argumentHint ? `${c.argumentHint} — ${c.description ?? ""}` : c.description }
				: {}),
		}));
		return items.length > 0 ? { items, prefix: typed } : null;
	}

	private async findFiles(query: string, signal: AbortSignal): Promise<AutocompleteItem[]> {
		const paths = this.fdPath ? await this.runFd(query, signal) : this.scanDirectory(query);
		return paths.slice(0, MAX_RESULTS).map((p) => ({
			value: quoteIfNeeded(p, true),
			label: p,
		}));
	}

	private runFd(query: string, signal: AbortSignal): Promise<string[]> {
		const args = [
			"--base-directory",
			this.basePath,
			"--max-results",
			String(MAX_RESULTS),
			"--type",
			"f",
			"--type",
			"d",
			"--follow",
			"--hidden",
			"--exclude",
			".git",
			"--exclude",
			".git/*",
			"--exclude",
			".git/**",
		];
		if (query.includes("/")) args.push("--full-path");
		if (query) args.push(query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
		return new Promise((resolve) => {
			execFile(this.fdPath!, args, { signal, encoding: "utf8" }, (error, stdout) => {
				if (error) return resolve([]);
				resolve(stdout.split("\n").filter(Boolean));
			});
		});
	}

	/** Without fd: walk the base directory (bounded) and fuzzy-match relative paths. */
	private scanDirectory(query: string): string[] {
		const found: string[] = [];
		const walk = (dir: string, rel: string) => {
			if (found.length >= FALLBACK_SCAN_LIMIT) return;
			let entries: fs.Dirent[];
			try {
				entries = fs.readdirSync(dir, { withFileTypes: true });
			} catch {
				return;
			}
			for (const e of entries) {
				if (e.name === ".git" || e.name === "node_modules") continue;
				const relPath = rel ? `${rel}/${e.name}` : e.name;
				if (e.isDirectory()) {
					found.push(`${relPath}/`);
					walk(path.join(dir, e.name), relPath);
				} else found.push(relPath);
			}
		};
		walk(this.basePath, "");
		return query ? fuzzyFilter(found, query, (p) => p) : found.sort();
	}

	/** Completes `~/`, `./`, `../` and absolute paths from a directory listing. */
	private completePath(token: string): AutocompleteItem[] {
		const expanded = token.startsWith("~/") ? path.join(os.homedir(), token.slice(2)) : token;
		const dirPart = expanded.endsWith("/") ? expanded : path.dirname(expanded);
		const base = expanded.endsWith("/") ? "" : path.basename(expanded);
		const dir = path.resolve(this.basePath, dirPart || ".");
		let entries: fs.Dirent[];
		try {
			entries = fs.readdirSync(dir, { withFileTypes: true });
		} catch {
			return [];
		}
		const typedDir = token.endsWith("/") ? token : token.slice(0, token.length - base.length);
		return entries
			.filter((e) => e.name.toLowerCase().startsWith(base.toLowerCase()))
			.sort((a, b) => a.name.localeCompare(b.name))
			.slice(0, MAX_RESULTS)
			.map((e) => {
				const completed = typedDir + e.name + (e.isDirectory() ? "/" : "");
				return { value: quoteIfNeeded(completed, false), label: e.name + (e.isDirectory() ? "/" : "") };
			});
	}
}
