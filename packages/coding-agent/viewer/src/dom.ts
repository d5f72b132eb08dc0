/**
 * DOM construction for the viewer. Session content only ever becomes text nodes or attribute values
 * chosen here; nothing is parsed as HTML (no innerHTML anywhere in the viewer).
 */
export type Child = Node | string | null | undefined | false;

type Props = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props = {},
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(props)) {
		if (value === undefined || value === false) continue;
		if (name === "class") element.className = String(value);
		else element.setAttribute(name, value === true ? "" : String(value));
	}
	append(element, ...children);
	return element;
}

export function append(parent: Node, ...children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue;
		parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
	}
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
	const element = document.getElementById(id);
	if (!element) throw new Error(`viewer: #${id} is missing`);
	return element as T;
}

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The URL when it is an absolute web or mail link; anything else (javascript:, data:, relative) is refused. */
export function safeUrl(href: string): string | undefined {
	try {
		const url = new URL(href.trim());
		return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** A link that opens in a new tab without a referrer, or plain text when the URL is not a safe link. */
export function link(href: string, ...children: Child[]): HTMLElement {
	const url = safeUrl(href);
	if (!url) return h("span", { class: "unsafe-link", title: href.slice(0, 500) }, ...children);
	return h("a", { href: url, target: "_blank", rel: "noopener noreferrer nofollow" }, ...children);
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An inline image from base64 data; undefined for other types or malformed data. */
export function dataImage(mimeType: unknown, data: unknown, alt: string): HTMLImageElement | undefined {
	if (typeof mimeType !== "string" || typeof data !== "string") return undefined;
	const type = mimeType.toLowerCase();
	if (!IMAGE_TYPES.has(type) || !BASE64.test(data)) return undefined;
	return h("img", { src: `data:${type};base64,${data}`, alt, loading: "lazy", decoding: "async" });
}

export function text(value: unknown): string {
	return typeof value === "string" ? value : "";
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
