import { isObject, type JsonObject, type JsonPath } from './json.js';

/** An object that may carry `example`/`examples` beside its `schema`, where it was reached. */
export interface ExampleHolder {
  holder: JsonObject;
  path: JsonPath;
}

/** Every method OpenAPI knows: the replaced spectral rules look at all of them. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every media type, parameter and header of an OpenAPI 3 document, at every path that reaches
 * it in the resolved document: under paths, webhooks (3.1), x-webhooks (how 3.0 descriptions
 * such as GitHub's write webhooks), callbacks, encodings and components. A shared component therefore comes
 * once per use; callers decide what a second visit is worth. Examples under other `x-`
 * extensions are not looked for.
 */
export function exampleHolders(document: unknown): ExampleHolder[] {
  const found: ExampleHolder[] = [];
  if (!isObject(document)) return found;
  const seenPathItems = new Set<object>();
  for (const key of ['paths', 'webhooks', 'x-webhooks']) {
    for (const [name, pathItem] of entriesOf(document[key])) addPathItem(found, pathItem, [key, name], seenPathItems);
  }
  const components = isObject(document.components) ? document.components : {};
  for (const [name, parameter] of entriesOf(components.parameters)) addParameter(found, parameter, ['components', 'parameters', name]);
  for (const [name, header] of entriesOf(components.headers)) addParameter(found, header, ['components', 'headers', name]);
  for (const [name, body] of entriesOf(components.requestBodies)) addContent(found, body, ['components', 'requestBodies', name]);
  for (const [name, response] of entriesOf(components.responses)) addResponse(found, response, ['components', 'responses', name]);
  for (const [name, callback] of entriesOf(components.callbacks)) {
    for (const [expression, pathItem] of entriesOf(callback)) addPathItem(found, pathItem, ['components', 'callbacks', name, expression], seenPathItems);
  }
  return found;
}

function entriesOf(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : [];
}

/** `seen` ends callbacks that lead back to a path item being walked. */
function addPathItem(found: ExampleHolder[], pathItem: unknown, path: JsonPath, seen: Set<object>): void {
  if (!isObject(pathItem) || seen.has(pathItem)) return;
  seen.add(pathItem);
  addParameters(found, pathItem.parameters, [...path, 'parameters']);
  for (const method of METHODS) {
    const operation = pathItem[method];
    if (!isObject(operation)) continue;
    const base = [...path, method];
    addParameters(found, operation.parameters, [...base, 'parameters']);
    addContent(found, operation.requestBody, [...base, 'requestBody']);
    for (const [status, response] of entriesOf(operation.responses)) addResponse(found, response, [...base, 'responses', status]);
    for (const [name, callback] of entriesOf(operation.callbacks)) {
      for (const [expression, callbackItem] of entriesOf(callback)) addPathItem(found, callbackItem, [...base, 'callbacks', name, expression], seen);
    }
  }
  seen.delete(pathItem);
}

function addParameters(found: ExampleHolder[], list: unknown, path: JsonPath): void {
  if (!Array.isArray(list)) return;
  list.forEach((parameter, index) => addParameter(found, parameter, [...path, index]));
}

/** Parameters and headers hold a schema themselves, or media types under `content`. */
function addParameter(found: ExampleHolder[], parameter: unknown, path: JsonPath): void {
  if (!isObject(parameter)) return;
  found.push({ holder: parameter, path });
  addContent(found, parameter, path);
}

function addResponse(found: ExampleHolder[], response: unknown, path: JsonPath): void {
  if (!isObject(response)) return;
  for (const [name, header] of entriesOf(response.headers)) addParameter(found, header, [...path, 'headers', name]);
  addContent(found, response, path);
}

/** Media types, and the headers of their multipart `encoding`s. */
function addContent(found: ExampleHolder[], owner: unknown, path: JsonPath): void {
  if (!isObject(owner)) return;
  for (const [mediaType, media] of entriesOf(owner.content)) {
    if (!isObject(media)) continue;
    const mediaPath = [...path, 'content', mediaType];
    found.push({ holder: media, path: mediaPath });
    for (const [property, encoding] of entriesOf(media.encoding)) {
      for (const [name, header] of entriesOf(isObject(encoding) ? encoding.headers : undefined)) {
        addParameter(found, header, [...mediaPath, 'encoding', property, 'headers', name]);
      }
    }
  }
}
