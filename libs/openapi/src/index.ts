export * from './schema.js';
export * from './components.js';
export * from './operation.js';
export * from './fragment.js';
// The OpenAPI 3.0 object types, so fragments and the gateway need no other import.
export type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  PathsObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
  SecurityRequirementObject,
  TagObject,
} from 'openapi3-ts/oas30';
