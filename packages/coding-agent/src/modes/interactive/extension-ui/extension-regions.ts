import type { Component, Container } from "@tau/tui";

type Disposable = Component & { dispose?(): void };

/** Where extension widgets, headers and footers go; replaced components are disposed. */
export class ExtensionRegions {
	private readonly widgets = new Map<string, { component: Disposable; container: Container }>();

	constructor(
		private readonly regions: {
			header: Container;
			footer: Container;
			widgetsAbove: Container;
			widgetsBelow: Container;
		},
		private readonly defaults: { header: Component; footer: Component },
		private readonly requestRender: () => void,
	) {}

	setWidget(key: string, component: Disposable | undefined, placement: "aboveEditor" | "belowEditor"): void {
		const previous = this.widgets.get(key);
		if (previous) {
			previous.container.removeChild(previous.component);
			previous.component.dispose?.();
			this.widgets.delete(key);
		}
		if (component) {
			const container = placement === "aboveEditor" ? this.regions.widgetsAbove : this.regions.widgetsBelow;
			container.addChild(component);
			this.widgets.set(key, { component, container });
		}
		this.requestRender();
	}

	/** `undefined` restores the built-in header. */
	setHeader(component: Disposable | undefined): void {
		this.replace(this.regions.header, component ?? this.defaults.header);
	}

	/** `undefined` restores the built-in footer. */
	setFooter(component: Disposable | undefined): void {
		this.replace(this.regions.footer, component ?? this.defaults.footer);
	}

	private replace(region: Container, component: Component): void {
		for (const child of region.children) if (child !== component) (child as Disposable).dispose?.();
		region.clear();
		region.addChild(component);
		this.requestRender();
	}
}
