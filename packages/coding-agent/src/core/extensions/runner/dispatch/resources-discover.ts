import type { DiscoveredResourcePaths, ResourcesDiscoverEvent, ResourcesDiscoverResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

/** `resources_discover`: paths of all handlers, concatenated and tagged with the extension path. */
export async function dispatchResourcesDiscover(
	host: DispatchHost,
	event: ResourcesDiscoverEvent,
): Promise<DiscoveredResourcePaths> {
	const found: DiscoveredResourcePaths = { skillPaths: [], promptPaths: [], themePaths: [] };
	const ctx = host.context();
	for (const { extensionPath, handler } of host.handlers("resources_discover")) {
		let result: ResourcesDiscoverResult | undefined;
		try {
			result = (await handler(event, ctx)) as ResourcesDiscoverResult | undefined;
		} catch (error) {
			host.report(extensionPath, "resources_discover", error);
			continue;
		}
		for (const key of ["skillPaths", "promptPaths", "themePaths"] as const) {
			for (const path of result?.[key] ?? []) found[key].push({ path, extensionPath });
		}
	}
	return found;
}
