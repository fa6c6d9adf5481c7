import { Ajv, type ValidateFunction } from 'ajv';
import document from '@/openapi/connect-api.json';

// The service's OpenAPI document (openapi/connect-api.json, written by `npm run openapi`) as the
// console reads it at run time: each operation's name, whether it is an extension (EXT) and safe
// to send twice, and one lenient check of its answers made from the document's schemas (Ajv):
// fields the document does not name are dropped, a nullable field left out reads as null, ids
// and timestamps are not held to their patterns (a remote service may write them otherwise), and
// anything else that does not fit fails naming the field.

type TJson = Record<string, unknown>;
export type TMethod = 'get' | 'post' | 'patch' | 'delete';

export type TOperation = {
  /** The operationId in words ('getNonprofit' → 'get nonprofit'), for messages and logs. */
  label: string;
  template: string;
  ext: boolean;
  /** GET and DELETE, or a POST/PATCH the document marks x-idempotent: retried on network errors and 429/502/503/504. */
  idempotent: boolean;
  /** The answer checked and normalised in place, or the first misfit: `results.0.status: must be …`. */
  check: (body: unknown) => { ok: true } | { ok: false; where: string };
};

const SCHEMAS = (document.components.schemas ?? {}) as Record<string, TJson>;

function allowsNull(s: TJson): boolean {
  return s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || (Array.isArray(s.anyOf) && s.anyOf.some((b: TJson) => allowsNull(b)));
}

/** How many fields an object branch names ($ref resolved), so the widest of a union is tried first. */
function width(s: TJson): number {
  const target = typeof s.$ref === 'string' ? SCHEMAS[s.$ref.split('/').pop()!] : s;
  return Object.keys((target?.properties as TJson) ?? {}).length;
}

/**
 * The document with the client's leniency written into it. Ajv drops what additionalProperties:
 * false leaves out as it checks a branch, so of a union the widest branch goes first (else a
 * narrower one would strip the fields of the wider before it matched), and the check is Ajv's
 * draft-07 one: the 2020-12 one tries every branch (to track evaluated fields), the narrow one too.
 * The document uses no keyword draft-07 lacks.
 */
function lenient(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lenient);
  if (!node || typeof node !== 'object') return node;
  const out: TJson = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'pattern' || key === 'format') && typeof value === 'string') continue; // keywords, not fields so named
    out[key] = lenient(value);
  }
  if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as TJson[])].sort((a, b) => width(b) - width(a));
  if (Array.isArray(out.required) && out.properties && typeof out.properties === 'object') {
    const properties = out.properties as Record<string, TJson>;
    out.required = (out.required as string[]).filter((name) => {
      if (!properties[name] || !allowsNull(properties[name])) return true;
      properties[name] = { ...properties[name], default: null };
      return false;
    });
  }
  return out;
}

const ajv = new Ajv({ strict: false, validateSchema: false, validateFormats: false, removeAdditional: true, useDefaults: true });
ajv.addSchema(lenient(document) as TJson, 'connect-api.json');

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const operations = new Map<string, TOperation>();

function checker(at: string): TOperation['check'] {
  let validate: ValidateFunction | undefined;
  return (body) => {
    validate ??= ajv.getSchema(`connect-api.json#${at}`)!;
    if (validate(body)) return { ok: true };
    const e = validate.errors?.[0];
    const field = e ? e.instancePath.slice(1).replace(/\//g, '.') : '';
    return { ok: false, where: e ? `${field || 'body'}: ${e.message}` : 'unreadable' };
  };
}

/** The document's operation `method template`; throws on one it does not have (a type error first). */
export function operation(method: TMethod, template: string): TOperation {
  const key = `${method} ${template}`;
  let found = operations.get(key);
  if (found) return found;
  const spec = (document.paths as Record<string, Record<string, TJson>>)[template]?.[method];
  if (!spec) throw new Error(`The OpenAPI document has no operation ${key}.`);
  const [status, response] = Object.entries(spec.responses as Record<string, { content?: Record<string, unknown> }>).find(([s]) => s.startsWith('2'))!;
  const type = Object.keys(response.content ?? {})[0];
  const at = `/paths/${pointer(template)}/${method}/responses/${status}/content/${pointer(type ?? '')}/schema`;
  found = {
    label: String(spec.operationId).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`),
    template,
    ext: spec['x-extension'] === true,
    idempotent: method === 'get' || method === 'delete' || spec['x-idempotent'] === true,
    check: type ? checker(at) : () => ({ ok: true }),
  };
  operations.set(key, found);
  return found;
}
