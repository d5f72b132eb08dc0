/** A tool declaration as sent to a model. `parameters` is any JSON Schema object. */
export interface Tool<TParameters extends object = object> {
	name: string;
	description: string;
	parameters: TParameters;
	constrainedSampling?: false | ConstrainedSamplingConfig;
}

/** A reference to a declared tool by name. */
export interface ToolReference {
	name: string;
}

/** How a provider may constrain a tool's arguments while sampling: to its JSON Schema, or to a grammar. */
export type ConstrainedSamplingConfig =
	| { type: "json_schema"; strict: "prefer" | "require" }
	| { type: "grammar"; variants: Partial<Record<"openai_lark" | "openai_regex", string>> };

/** Whether the model may call tools (`auto`) or must answer without them (`none`). */
export type ToolChoice = "auto" | "none";
