import type { ExtensionAPI } from "@tau/coding-agent";
import { loadExtensionItems } from "../../src/core/extensions/index.js";
import type { ExtensionLoadItem } from "../../src/core/resources/index.js";

/** A load item for an extension given as a function: what `-e` of a file yields, without a file on disk. */
export function inlineExtension(path: string, factory: (pi: ExtensionAPI) => unknown): ExtensionLoadItem {
	return {
		path,
		sourceInfo: { path, source: "inline", scope: "temporary", origin: "top-level" },
		hidden: false,
		replaceable: false,
		factory: factory as never,
	};
}

/** Loads the factories as the extensions `ext1`, `ext2`, … in that order. */
export function loadInlineExtensions(cwd: string, factories: readonly ((pi: ExtensionAPI) => unknown)[]) {
	return loadExtensionItems({
		cwd,
		items: factories.map((factory, index) => inlineExtension(`ext${index + 1}`, factory)),
	});
}
