import type { AnyModel, Api, Model, ModelType, ModelTypeMap } from "../types/model.js";

/** The effective type of a model: absent means chat. */
export function getModelType(model: AnyModel): ModelType {
	return model.type ?? "chat";
}

/** Whether a model is of the given kind (chat, image, classifier); narrows its type. */
export function isModelType<T extends ModelType>(model: AnyModel, type: T): model is ModelTypeMap[T] {
	return getModelType(model) === type;
}

/** True only for chat models speaking `api`; narrows the model for typed `stream` options. */
export function hasApi<TApi extends Api>(model: AnyModel, api: TApi): model is Model<TApi> {
	return isModelType(model, "chat") && model.api === api;
}

/** Same effective type, id and provider; false when either is nullish. */
export function modelsAreEqual(a: AnyModel | null | undefined, b: AnyModel | null | undefined): boolean {
	if (!a || !b) return false;
	return getModelType(a) === getModelType(b) && a.id === b.id && a.provider === b.provider;
}

const MODEL_TYPES: readonly string[] = ["chat", "image", "classifier"];

/** Stored or remote data may carry types this version does not know; those are dropped, not rejected. */
export function hasKnownModelType(model: AnyModel): boolean {
	return MODEL_TYPES.includes(getModelType(model));
}
