/** How the highlighter reads one language: its words, comments and strings. */
export interface LanguageSyntax {
	keywords: ReadonlySet<string>;
	/** Built-in type names; with `capitalTypes`, capitalised identifiers are types too. */
	types: ReadonlySet<string>;
	capitalTypes: boolean;
	/** Keywords and types match regardless of case (SQL, Dockerfile). */
	caseInsensitive: boolean;
	lineComments: readonly string[];
	blockComment?: readonly [open: string, close: string];
	quotes: string;
	/** Quotes whose strings may span lines (template literals, raw strings). */
	multilineQuotes: string;
	/** `"""…"""` and `'''…'''` strings (Python, TOML). */
	tripleQuotes: boolean;
	/** `$name`, `${name}` and `$1` are variables (shells, PHP, make). */
	dollarVariables: boolean;
}

interface LanguageEntry {
	id: string;
	aliases?: string;
	extensions?: string;
	/** Whole file names (lower case) that mean this language. */
	fileNames?: string;
	syntax?: Partial<LanguageSyntax> & { keywords?: ReadonlySet<string> };
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

const C_LIKE = { lineComments: ["//"], blockComment: ["/*", "*/"] as const, capitalTypes: true };
const HASH = { lineComments: ["#"] };

const JS_KEYWORDS =
	"break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new return super switch this throw try typeof var void while with yield async await of static get set true false null undefined";
const C_KEYWORDS =
	"auto break case const continue default do else enum extern for goto if inline register restrict return sizeof static struct switch typedef union volatile while true false NULL include define ifdef ifndef endif pragma";
const C_TYPES = "char double float int long short signed unsigned void bool size_t";

const LANGUAGES: readonly LanguageEntry[] = [
	{
		id: "typescript",
		aliases: "ts tsx mts cts",
		extensions: "ts tsx mts cts",
		syntax: {
			...C_LIKE,
			multilineQuotes: "`",
			keywords: words(
				`${JS_KEYWORDS} interface type enum implements namespace declare abstract private protected public readonly keyof infer is as satisfies override`,
			),
			types: words("string number boolean any unknown never object bigint symbol"),
		},
	},
	{
		id: "javascript",
		aliases: "js jsx mjs cjs node",
		extensions: "js jsx mjs cjs",
		syntax: { ...C_LIKE, multilineQuotes: "`", keywords: words(JS_KEYWORDS) },
	},
	{
		id: "python",
		aliases: "py python3",
		extensions: "py pyi pyw",
		syntax: {
			...HASH,
			capitalTypes: true,
			tripleQuotes: true,
			keywords: words(
				"and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield True False None match case self",
			),
			types: words("int float str bool list dict set tuple bytes object"),
		},
	},
	{
		id: "bash",
		aliases: "sh shell zsh ksh",
		extensions: "sh bash zsh ksh",
		fileNames: ".bashrc .bash_profile .zshrc .profile",
		syntax: {
			...HASH,
			dollarVariables: true,
			keywords: words(
				"if then else elif fi case esac for while until do done in function return exit local export readonly declare unset shift break continue source alias echo cd set trap",
			),
		},
	},
	{
		id: "json",
		aliases: "jsonc json5",
		extensions: "json jsonc json5 jsonl",
		syntax: { ...C_LIKE, capitalTypes: false, keywords: words("true false null") },
	},
	{
		id: "rust",
		aliases: "rs",
		extensions: "rs",
		syntax: {
			...C_LIKE,
			keywords: words(
				"as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while",
			),
			types: words("i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str"),
		},
	},
	{
		id: "go",
		aliases: "golang",
		extensions: "go",
		syntax: {
			...C_LIKE,
			multilineQuotes: "`",
			keywords: words(
				"break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota",
			),
			types: words(
				"int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr float32 float64 complex64 complex128 bool byte rune string error any",
			),
		},
	},
	{
		id: "c",
		aliases: "h",
		extensions: "c h",
		syntax: { ...C_LIKE, keywords: words(C_KEYWORDS), types: words(C_TYPES) },
	},
	{
		id: "cpp",
		aliases: "c++ cc cxx hpp hh",
		extensions: "cpp cc cxx hpp hh hxx",
		syntax: {
			...C_LIKE,
			keywords: words(
				`${C_KEYWORDS} class namespace template typename public private protected virtual override new delete this try catch throw using nullptr constexpr operator friend explicit noexcept final`,
			),
			types: words(`${C_TYPES} string`),
		},
	},
	{
		id: "java",
		extensions: "java",
		syntax: {
			...C_LIKE,
			keywords: words(
				"abstract assert break case catch class const continue default do else enum extends final finally for goto if implements import instanceof interface native new package private protected public return static super switch synchronized this throw throws transient try volatile while var record true false null",
			),
			types: words("boolean byte char double float int long short void"),
		},
	},
	{
		id: "csharp",
		aliases: "cs c#",
		extensions: "cs",
		syntax: {
			...C_LIKE,
			keywords: words(
				"abstract as base break case catch class const continue default delegate do else enum event explicit extern finally fixed for foreach goto if implicit in interface internal is lock namespace new operator out override params private protected public readonly ref return sealed sizeof static struct switch this throw try typeof unsafe using var virtual volatile while async await true false null get set",
			),
			types: words("bool byte char decimal double float int long object sbyte short string uint ulong ushort void"),
		},
	},
	{
		id: "kotlin",
		aliases: "kt kts",
		extensions: "kt kts",
		syntax: {
			...C_LIKE,
			keywords: words(
				"as break class continue do else false for fun if in interface is null object package return super this throw true try typealias val var when while import private public protected internal override open data sealed companion lateinit suspend",
			),
		},
	},
	{
		id: "swift",
		extensions: "swift",
		syntax: {
			...C_LIKE,
			keywords: words(
				"class deinit enum extension func import init let protocol struct subscript typealias var break case continue default defer do else fallthrough for guard if in repeat return switch where while as catch false is nil self Self super throw throws true try public private internal fileprivate static override mutating async await",
			),
		},
	},
	{
		id: "ruby",
		aliases: "rb",
		extensions: "rb rake gemspec",
		fileNames: "gemfile rakefile",
		syntax: {
			...HASH,
			capitalTypes: true,
			keywords: words(
				"alias and begin break case class def do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield require",
			),
		},
	},
	{
		id: "php",
		extensions: "php",
		syntax: {
			...C_LIKE,
			lineComments: ["//", "#"],
			dollarVariables: true,
			keywords: words(
				"abstract and array as break case catch class clone const continue declare default do echo else elseif empty extends final finally fn for foreach function global if implements include instanceof interface isset list match namespace new null or print private protected public readonly require return static switch throw trait true false try unset use var while yield",
			),
		},
	},
	{
		id: "lua",
		extensions: "lua",
		syntax: {
			lineComments: ["--"],
			blockComment: ["--[[", "]]"],
			keywords: words(
				"and break do else elseif end false for function goto if in local nil not or repeat return then true until while",
			),
		},
	},
	{
		id: "sql",
		extensions: "sql",
		syntax: {
			lineComments: ["--"],
			blockComment: ["/*", "*/"],
			caseInsensitive: true,
			keywords: words(
				"select from where insert into values update set delete create table drop alter add index primary key foreign references join inner left right outer full on as and or not null is in exists between like group by order having limit offset union all distinct case when then else end default unique check view with returning begin commit rollback true false",
			),
			types: words(
				"int integer bigint smallint text varchar char boolean date timestamp real float double decimal numeric serial",
			),
		},
	},
	{
		id: "yaml",
		aliases: "yml",
		extensions: "yaml yml",
		syntax: { ...HASH, keywords: words("true false null yes no on off") },
	},
	{ id: "toml", extensions: "toml", syntax: { ...HASH, tripleQuotes: true, keywords: words("true false") } },
	{
		id: "css",
		aliases: "scss less",
		extensions: "css scss less",
		syntax: {
			lineComments: [],
			blockComment: ["/*", "*/"],
			keywords: words("important inherit initial unset none auto"),
		},
	},
	{
		id: "html",
		aliases: "xml svg xhtml",
		extensions: "html htm xml svg xhtml",
		syntax: { lineComments: [], blockComment: ["<!--", "-->"], quotes: `"'` },
	},
	{
		id: "dockerfile",
		aliases: "docker",
		extensions: "dockerfile",
		fileNames: "dockerfile containerfile",
		syntax: {
			...HASH,
			caseInsensitive: true,
			dollarVariables: true,
			keywords: words(
				"from run cmd label expose env add copy entrypoint volume user workdir arg onbuild stopsignal healthcheck shell as",
			),
		},
	},
	{
		id: "makefile",
		aliases: "make mk",
		extensions: "mk mak",
		fileNames: "makefile gnumakefile",
		syntax: {
			...HASH,
			dollarVariables: true,
			keywords: words("ifeq ifneq ifdef ifndef else endif include define endef export"),
		},
	},
	// Recognised from paths, shown without colours.
	{ id: "markdown", aliases: "md", extensions: "md markdown" },
	{ id: "diff", aliases: "patch", extensions: "diff patch" },
];

function complete(syntax: LanguageEntry["syntax"] & object): LanguageSyntax {
	return {
		keywords: syntax.keywords ?? new Set(),
		types: syntax.types ?? new Set(),
		capitalTypes: syntax.capitalTypes ?? false,
		caseInsensitive: syntax.caseInsensitive ?? false,
		lineComments: syntax.lineComments ?? [],
		...(syntax.blockComment ? { blockComment: syntax.blockComment } : {}),
		quotes: syntax.quotes ?? `"'\``,
		multilineQuotes: syntax.multilineQuotes ?? "",
		tripleQuotes: syntax.tripleQuotes ?? false,
		dollarVariables: syntax.dollarVariables ?? false,
	};
}

const split = (list: string | undefined) => (list ? list.split(" ") : []);

const BY_NAME = new Map<string, LanguageEntry>();
const BY_EXTENSION = new Map<string, string>();
const BY_FILE_NAME = new Map<string, string>();
for (const entry of LANGUAGES) {
	for (const name of [entry.id, ...split(entry.aliases)]) BY_NAME.set(name, entry);
	for (const extension of split(entry.extensions)) BY_EXTENSION.set(extension, entry.id);
	for (const fileName of split(entry.fileNames)) BY_FILE_NAME.set(fileName, entry.id);
}
const SYNTAX = new Map<LanguageEntry, LanguageSyntax>();

/** The syntax of a language id or alias (`ts`, `typescript`, `Python`); undefined when unknown. */
export function languageSyntax(lang: string): LanguageSyntax | undefined {
	const entry = BY_NAME.get(lang.trim().toLowerCase());
	if (!entry?.syntax) return undefined;
	let syntax = SYNTAX.get(entry);
	if (!syntax) {
		syntax = complete(entry.syntax);
		SYNTAX.set(entry, syntax);
	}
	return syntax;
}

/** The highlight language of a file path, from its name or extension; undefined when unknown. */
export function getLanguageFromPath(path: string): string | undefined {
	const name = (path.split(/[\\/]/).pop() ?? "").toLowerCase();
	const byName = BY_FILE_NAME.get(name);
	if (byName) return byName;
	const dot = name.lastIndexOf(".");
	return dot > 0 ? BY_EXTENSION.get(name.slice(dot + 1)) : undefined;
}
