export { toCodemodeIdentifier } from "./identifier.js";
export {
	DEFAULT_INPUT_SCHEMA_MAX_CHARS,
	renderDeclarations,
	renderToolOutputType,
	renderToolSample,
	renderToolSignature,
} from "./render.js";
export { resolveSchemaRef, type SchemaToTypeOptions, schemaToType } from "./schema-to-type.js";
