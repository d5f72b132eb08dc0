/** The identifier a script uses for a tool: every character invalid in an identifier becomes `_`. */
export function toCodemodeIdentifier(name: string): string {
	if (name === "") return "_";
	let out = /[A-Za-z_$]/.test(name[0]!) ? name[0]! : "_";
	for (let i = 1; i < name.length; i++) out += /[A-Za-z0-9_$]/.test(name[i]!) ? name[i] : "_";
	return out;
}
