const CHUNK_LIMIT = 1_048_576;

/** Accumulates frame output and hands it to the terminal in chunks of at most 1 MiB. */
export class OutputWriter {
	private chunk = "";

	constructor(private readonly write: (data: string) => void) {}

	append(text: string): void {
		let rest = text;
		while (this.chunk.length + rest.length > CHUNK_LIMIT) {
			let take = CHUNK_LIMIT - this.chunk.length;
			// Never split a surrogate pair across writes.
			const code = rest.charCodeAt(take - 1);
			if (take > 0 && code >= 0xd800 && code <= 0xdbff) take--;
			this.chunk += rest.slice(0, take);
			rest = rest.slice(take);
			this.flush();
		}
		this.chunk += rest;
	}

	flush(): void {
		if (this.chunk.length === 0) return;
		const data = this.chunk;
		this.chunk = "";
		this.write(data);
	}
}
