import type { TSchema } from "typebox";
import type { VirtualModelDefinition } from "../../../config/index.js";
import type {
	EventBus,
	ExtensionAPI,
	ExtensionProviderConfig,
	ExtensionVirtualModel,
	FlagOptions,
	McpServerConfig,
	NativeProvider,
} from "../api/extension-api.js";
import type { ToolDefinition } from "../api/tool-definition.js";
import { failedExtensionMessage } from "./errors.js";
import { execCommand } from "./exec.js";
import type { AnyHandler, DeferredChange, Extension } from "./extension.js";
import type { ExtensionRuntime } from "./extension-runtime.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** MCP namespaces treat `-` and `_` alike, so `my-docs` and `my_docs` collide. */
function mcpNamespace(name: string): string {
	return name.replace(/-/g, "_").toLowerCase();
}

function validateMcpServer(
	runtime: ExtensionRuntime,
	extension: Extension,
	name: string,
	config: McpServerConfig,
): void {
	if (typeof name !== "string" || name.trim() === "") throw new Error("MCP server name must be a non-empty string");
	if (!isPlainObject(config)) throw new Error(`MCP server "${name}" config must be an object`);
	const hasCommand = typeof config.command === "string" && config.command !== "";
	const hasUrl = typeof config.url === "string" && config.url !== "";
	if (hasCommand === hasUrl) throw new Error(`MCP server "${name}" config needs exactly one of "command" or "url"`);
	for (const server of runtime.mcpServers) {
		if (server.extensionPath === extension.path) continue;
		if (server.name === name) {
			throw new Error(`MCP server "${name}" is already registered by extension "${server.extensionPath}"`);
		}
		if (mcpNamespace(server.name) === mcpNamespace(name)) {
			throw new Error(`MCP server "${name}" collides with "${server.name}" registered by "${server.extensionPath}"`);
		}
	}
}

/**
 * The `pi` object of one extension. Registration methods write the extension's own tables; action
 * methods go through the shared runtime (stubs until the session binds). Every call first checks that
 * the extension did not fail and that its runtime is not stale.
 */
export function createExtensionAPI(extension: Extension, runtime: ExtensionRuntime, cwd: string): ExtensionAPI {
	const assertActive = () => {
		runtime.assertNotStale();
		if (extension.state === "failed") throw new Error(failedExtensionMessage(extension.path));
	};
	/** Provider/MCP changes made while the factory runs wait for it to complete. */
	const applyOrDefer = (event: DeferredChange["event"], apply: () => void) => {
		if (extension.state === "loading") extension.deferredChanges.push({ event, apply });
		else apply();
	};
	const refreshTools = () => {
		if (extension.state === "active") runtime.actions.refreshTools();
	};
	const mcpChanged = () => {
		if (runtime.coreBound) runtime.onMcpServersChange?.();
	};

	const events: EventBus = {
		emit(channel, data) {
			assertActive();
			runtime.eventBus.emit(channel, data);
		},
		on(channel, handler) {
			assertActive();
			const unsubscribe = runtime.eventBus.on(channel, (data) => {
				try {
					const result = handler(data);
					if (result instanceof Promise) {
						result.catch((error: unknown) => runtime.report(extension.path, `events:${channel}`, error));
					}
				} catch (error) {
					runtime.report(extension.path, `events:${channel}`, error);
				}
			});
			const remove = () => {
				unsubscribe();
				extension.eventSubscriptions.delete(remove);
			};
			extension.eventSubscriptions.add(remove);
			return remove;
		},
	};

	const api: ExtensionAPI = {
		on(event: string, handler: AnyHandler) {
			assertActive();
			let list = extension.handlers.get(event);
			if (!list) {
				list = [];
				extension.handlers.set(event, list);
			}
			list.push(handler);
			let removed = false;
			return () => {
				if (removed) return;
				removed = true;
				const current = extension.handlers.get(event);
				const index = current?.indexOf(handler) ?? -1;
				if (current && index >= 0) current.splice(index, 1);
			};
		},
		registerTool<P extends TSchema, D, S>(tool: ToolDefinition<P, D, S>) {
			assertActive();
			if (!isPlainObject(tool.parameters)) {
				throw new Error(
					`Tool "${tool.name}" registered by extension "${extension.path}" must define an object parameter schema.`,
				);
			}
			extension.tools.set(tool.name, {
				definition: tool as ToolDefinition<any, any, any>,
				extensionPath: extension.path,
				sourceInfo: extension.sourceInfo,
			});
			refreshTools();
		},
		registerCommand(name, options) {
			assertActive();
			if (typeof name !== "string" || name === "") throw new Error("Command name must be a non-empty string");
			if (typeof options?.handler !== "function") throw new Error(`Command "${name}" must have a handler function`);
			extension.commands.set(name, {
				name,
				options,
				extensionPath: extension.path,
				sourceInfo: extension.sourceInfo,
			});
		},
		registerShortcut(key, options) {
			assertActive();
			extension.shortcuts.set(key, { key, options, extensionPath: extension.path });
		},
		registerFlag(name: string, options: FlagOptions) {
			assertActive();
			if (options.default !== undefined && typeof options.default !== options.type) {
				throw new Error(
					`Invalid default for flag "${name}": expected ${options.type}, got ${typeof options.default}`,
				);
			}
			extension.flags.set(name, { name, options, extensionPath: extension.path });
		},
		getFlag(name) {
			assertActive();
			const flag = extension.flags.get(name);
			if (!flag) return undefined;
			return runtime.flagValues.get(name) ?? flag.options.default;
		},
		registerMessageRenderer(customType, renderer) {
			assertActive();
			extension.messageRenderers.set(customType, renderer);
		},
		registerMarkdownTransformer(transformer, options = {}) {
			assertActive();
			extension.markdownTransformer = { transformer, options };
		},
		registerEntryRenderer(customType, renderer) {
			assertActive();
			extension.entryRenderers.set(customType, renderer);
		},
		registerToolRenderer(resolver) {
			assertActive();
			extension.toolRendererResolvers.push(resolver);
		},

		sendMessage(message, options) {
			assertActive();
			runtime.actions.sendMessage(message, options);
		},
		sendUserMessage(content, options) {
			assertActive();
			runtime.actions.sendUserMessage(content, options);
		},
		appendEntry(customType, data) {
			assertActive();
			runtime.actions.appendEntry(customType, data);
		},
		setSessionName(name) {
			assertActive();
			runtime.actions.setSessionName(name);
		},
		getSessionName() {
			assertActive();
			return runtime.actions.getSessionName();
		},
		setLabel(entryId, label) {
			assertActive();
			runtime.actions.setLabel(entryId, label);
		},
		exec(command, args, options = {}) {
			assertActive();
			return execCommand(command, args, { ...options, cwd: options.cwd ?? cwd });
		},
		getActiveTools() {
			assertActive();
			return runtime.actions.getActiveTools();
		},
		getAllTools() {
			assertActive();
			return runtime.actions.getAllTools();
		},
		setActiveTools(toolNames) {
			assertActive();
			runtime.actions.setActiveTools(toolNames);
		},
		getCommands() {
			assertActive();
			return runtime.actions.getCommands();
		},
		getSettings() {
			assertActive();
			return runtime.actions.getSettings();
		},
		setModel(model) {
			try {
				assertActive();
			} catch (error) {
				return Promise.reject(error);
			}
			return runtime.actions.setModel(model);
		},
		getThinkingLevel() {
			assertActive();
			return runtime.actions.getThinkingLevel();
		},
		setThinkingLevel(level) {
			assertActive();
			runtime.actions.setThinkingLevel(level);
		},

		registerProvider(nameOrProvider: string | NativeProvider, config?: ExtensionProviderConfig) {
			assertActive();
			applyOrDefer("register_provider", () => {
				const providers = runtime.providerActions;
				if (typeof nameOrProvider === "string") {
					const providerConfig = config ?? {};
					if (providers) providers.registerProvider(nameOrProvider, providerConfig, extension.path);
					else
						runtime.pendingProviderRegistrations.push({
							name: nameOrProvider,
							config: providerConfig,
							extensionPath: extension.path,
						});
				} else if (providers) providers.registerNativeProvider(nameOrProvider, extension.path);
				else
					runtime.pendingNativeProviderRegistrations.push({
						provider: nameOrProvider,
						extensionPath: extension.path,
					});
			});
		},
		unregisterProvider(name) {
			assertActive();
			applyOrDefer("register_provider", () => {
				if (runtime.providerActions) {
					runtime.providerActions.unregisterProvider(name);
					return;
				}
				removeWhere(runtime.pendingProviderRegistrations, (pending) => pending.name === name);
				removeWhere(runtime.pendingNativeProviderRegistrations, (pending) => pending.provider.id === name);
			});
		},
		registerVirtualModel(model: ExtensionVirtualModel<any>) {
			assertActive();
			// The router gets the context of whichever session this runtime is bound to when it routes.
			const definition: VirtualModelDefinition = {
				...model,
				route: (request) => model.route(request, runtime.createContext()),
			};
			applyOrDefer("register_virtual_model", () => {
				if (runtime.providerActions) runtime.providerActions.registerVirtualModel(definition, extension.path);
				else runtime.pendingVirtualModelRegistrations.push({ definition, extensionPath: extension.path });
			});
		},
		unregisterVirtualModel(provider, id) {
			assertActive();
			applyOrDefer("register_virtual_model", () => {
				if (runtime.providerActions) runtime.providerActions.unregisterVirtualModel(provider, id);
				else
					removeWhere(
						runtime.pendingVirtualModelRegistrations,
						(pending) => pending.definition.provider === provider && pending.definition.id === id,
					);
			});
		},
		registerMcpServer(name, config) {
			assertActive();
			validateMcpServer(runtime, extension, name, config);
			applyOrDefer("register_mcp_server", () => {
				extension.mcpServers.set(name, config);
				const existing = runtime.mcpServers.findIndex(
					(server) => server.name === name && server.extensionPath === extension.path,
				);
				const entry = { name, config, extensionPath: extension.path };
				if (existing >= 0) runtime.mcpServers[existing] = entry;
				else runtime.mcpServers.push(entry);
				mcpChanged();
			});
		},
		unregisterMcpServer(name) {
			assertActive();
			applyOrDefer("register_mcp_server", () => {
				if (!extension.mcpServers.delete(name)) return;
				removeWhere(
					runtime.mcpServers,
					(server) => server.name === name && server.extensionPath === extension.path,
				);
				mcpChanged();
			});
		},
		getMcpServers() {
			assertActive();
			return runtime.mcpServers.map((server) => ({ ...server, config: { ...server.config } }));
		},
		events,
	};
	return api;
}

function removeWhere<T>(list: T[], predicate: (item: T) => boolean): void {
	for (let index = list.length - 1; index >= 0; index--) {
		if (predicate(list[index] as T)) list.splice(index, 1);
	}
}
