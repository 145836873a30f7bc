import type { App } from '../app.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The part of a JSON schema the route tests read. */
export interface JsonSchema {
  type?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** One input of a route: a path, query or header parameter, or a property of the JSON body. */
export interface ApiField {
  in: 'path' | 'query' | 'header' | 'body';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One route of the OpenAPI document with its inputs. */
export interface ApiRoute {
  method: Method;
  /** As the document writes it: `/api/v1/questions/{qid}/answer/`. */
  pattern: string;
  tags: string[];
  /** Path, query and header parameters. */
  params: ApiField[];
  /**
   * The JSON body's possible shapes: one per branch of a union (`anyOf`), one for a plain
   * object, none when the route takes no JSON body.
   */
  bodies: ApiField[][];
}

interface Operation {
  tags?: string[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * The object shapes a body schema allows: one per branch of a union (`anyOf`, `oneOf`, nested
 * too), an intersection (`allOf`) merged. Anything else fails loudly, so that a route whose body
 * these tests cannot read is never tested as if it took no fields.
 */
function objectBranches(schema: JsonSchema): JsonSchema[] {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.flatMap(objectBranches);
  if (schema.allOf) {
    return schema.allOf.map(objectBranches).reduce((acc, parts) =>
      acc.flatMap((a) =>
        parts.map((b) => ({
          type: 'object',
          properties: { ...a.properties, ...b.properties },
          required: [...(a.required ?? []), ...(b.required ?? [])],
        })),
      ),
    );
  }
  if (schema.type !== 'object') {
    throw new Error(`A JSON body these tests cannot read: ${JSON.stringify(schema).slice(0, 200)}`);
  }
  return [schema];
}

export function bodyShapes(schema: JsonSchema | undefined): ApiField[][] {
  if (!schema) return [];
  return objectBranches(schema).map((branch) =>
    Object.entries(branch.properties ?? {}).map(([name, s]) => ({
      in: 'body' as const,
      name,
      required: branch.required?.includes(name) ?? false,
      schema: s,
    })),
  );
}

/** Every route of the app's OpenAPI document (GET, POST, PUT, DELETE), with its inputs. */
export function apiRoutes(app: App): ApiRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([pattern, operations]) =>
    Object.entries(operations)
      .filter(([m]) => METHODS.includes(m.toUpperCase()))
      .map(([m, op]) => ({
        method: m.toUpperCase() as Method,
        pattern,
        tags: op.tags ?? [],
        params: (op.parameters ?? []).map((p) => ({
          in: p.in as ApiField['in'],
          name: p.name,
          required: p.required ?? false,
          schema: p.schema ?? {},
        })),
        bodies: bodyShapes(op.requestBody?.content?.['application/json']?.schema),
      })),
  );
}
