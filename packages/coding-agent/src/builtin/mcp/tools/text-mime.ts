/** MIME types whose bytes are text, so a blob of them reaches the model as text instead of a file. */
export function isTextMime(mime: string | undefined): boolean {
	if (!mime) return false;
	const type = mime.split(";")[0]!.trim().toLowerCase();
	return (
		type.startsWith("text/") ||
		type === "application/json" ||
		type === "application/xml" ||
		type === "application/javascript" ||
		type.endsWith("+json") ||
		type.endsWith("+xml")
	);
}
