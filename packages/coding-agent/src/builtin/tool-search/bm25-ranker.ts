import { tokenize } from "./tokenize.js";

/** What the ranker knows about a tool. */
export interface RankableTool {
	name: string;
	description?: string;
	/** JSON Schema of the parameters: its descriptions and property names are searchable text. */
	parameters?: unknown;
	namespace?: { name: string; description?: string; instructions?: string };
}

export interface RankedTool {
	name: string;
	score: number;
}

interface RankDocument {
	name: string;
	nameTerms: Set<string>;
	localNameTerms: string[];
	termCounts: Map<string, number>;
	length: number;
	namespaceTerms: Set<string>;
}

const K1 = 1.2;
const B = 0.75;

/** Descriptions and property names found in a schema, each local `$ref` read once. */
function schemaText(root: unknown): string[] {
	const out: string[] = [];
	const seenRefs = new Set<string>();
	const visit = (node: unknown): void => {
		if (!node || typeof node !== "object") return;
		if (Array.isArray(node)) {
			for (const item of node) visit(item);
			return;
		}
		const schema = node as Record<string, unknown>;
		if (typeof schema.description === "string") out.push(schema.description);
		if (typeof schema.$ref === "string" && schema.$ref.startsWith("#") && !seenRefs.has(schema.$ref)) {
			seenRefs.add(schema.$ref);
			visit(resolvePointer(root, schema.$ref));
		}
		if (schema.properties && typeof schema.properties === "object") {
			for (const [key, value] of Object.entries(schema.properties)) {
				out.push(key);
				visit(value);
			}
		}
		visit(schema.items);
		visit(schema.anyOf);
		visit(schema.oneOf);
		visit(schema.allOf);
	};
	visit(root);
	return out;
}

function resolvePointer(root: unknown, ref: string): unknown {
	if (ref === "#") return root;
	let node = root;
	for (const raw of ref.slice(2).split("/")) {
		const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
		if (!node || typeof node !== "object") return undefined;
		node = (node as Record<string, unknown>)[key];
	}
	return node;
}

function normalizeForExactMatch(text: string): string {
	return text
		.trim()
		.toLowerCase()
		.replace(/[^a-z0-9_$]/g, "_");
}

/**
 * BM25 over tool names, descriptions, parameter schemas and namespace text, shared by
 * `tool_search` and the codemode `searchTools()` global.
 */
export class Bm25Ranker {
	private readonly documents: RankDocument[];
	private readonly documentFrequency = new Map<string, number>();
	private readonly averageLength: number;

	constructor(tools: readonly RankableTool[]) {
		this.documents = tools.map((tool) => {
			const terms = tokenize([tool.description ?? "", ...schemaText(tool.parameters)].join("\n"));
			const termCounts = new Map<string, number>();
			for (const term of terms) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
			const localName = tool.name.includes("__") ? tool.name.slice(tool.name.lastIndexOf("__") + 2) : tool.name;
			const ns = tool.namespace;
			return {
				name: tool.name,
				nameTerms: new Set(tokenize(tool.name)),
				localNameTerms: tokenize(localName),
				termCounts,
				length: terms.length,
				namespaceTerms: new Set(
					ns ? tokenize([ns.name, ns.description ?? "", ns.instructions ?? ""].join("\n")) : [],
				),
			};
		});
		for (const doc of this.documents) {
			const all = new Set([...doc.nameTerms, ...doc.termCounts.keys(), ...doc.namespaceTerms]);
			for (const term of all) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
		}
		const total = this.documents.reduce((sum, doc) => sum + doc.length, 0);
		this.averageLength = this.documents.length === 0 ? 0 : total / this.documents.length;
	}

	private idf(term: string): number {
		const n = this.documents.length;
		const df = this.documentFrequency.get(term) ?? 0;
		return Math.log(1 + (n - df + 0.5) / (df + 0.5));
	}

	/** The best `limit` matches: exact name first, then more query terms covered, then score. */
	rank(query: string, limit: number): RankedTool[] {
		const queryTerms = [...new Set(tokenize(query))];
		if (queryTerms.length === 0 || this.documents.length === 0 || limit <= 0) return [];
		const normalizedQuery = normalizeForExactMatch(query);
		const scored = this.documents.flatMap((doc, index) => {
			let score = 0;
			let covered = 0;
			for (const term of queryTerms) {
				const tf = doc.termCounts.get(term) ?? 0;
				const lengthNorm = this.averageLength === 0 ? 1 : doc.length / this.averageLength;
				const weight =
					(doc.nameTerms.has(term) ? 3 : 0) +
					(doc.namespaceTerms.has(term) ? 0.5 : 0) +
					(tf * (K1 + 1)) / (tf + K1 * (1 - B + B * lengthNorm));
				score += this.idf(term) * weight;
				if (weight > 0) covered++;
			}
			if (score === 0) return [];
			if (doc.localNameTerms.length > 0 && doc.localNameTerms.every((t) => queryTerms.includes(t))) {
				for (const term of queryTerms) score += this.idf(term);
			}
			const name = normalizeForExactMatch(doc.name);
			const exact = normalizedQuery === name || name.endsWith(`__${normalizedQuery}`);
			return [{ name: doc.name, score, covered, exact, index }];
		});
		scored.sort(
			(a, b) => Number(b.exact) - Number(a.exact) || b.covered - a.covered || b.score - a.score || a.index - b.index,
		);
		return scored.slice(0, limit).map(({ name, score }) => ({ name, score }));
	}
}
