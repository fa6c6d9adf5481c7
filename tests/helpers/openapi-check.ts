import { AssertionError } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Every service response the tests see through call() (tests/helpers/http.ts) is checked against the
// OpenAPI document the app itself serves at /openapi.json: its status must be one the operation
// lists, its content type one the response lists, its body valid against that schema (JSON Schema
// 2020-12 with formats, by Ajv), and its required headers present and valid. A path no operation
// serves must answer a 404 problem, a method the path does not take a 405 problem with Allow, a
// path with a trailing slash or an empty segment a 308 to its normalised form (the document's
// stated conventions). Anything else fails the test that made the request.
// Each test process writes how many responses it validated to tests/.tmp/openapi-checks/, and
// scripts/test.mjs prints the total.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = path.resolve(import.meta.dirname, '../..');
/** Set by scripts/test.mjs per run (a PostgreSQL pass beside an embedded one has its own). */
export const CHECKS_DIR = process.env.TEST_OPENAPI_CHECKS || path.join(ROOT, 'tests/.tmp/openapi-checks');

/** The service's paths: everything else (console, receiver, pages) is not in the document. */
const SERVICE_PATH = /^\/(v1(\/|$)|oauth\/token$|\.well-known\/jwks\.json$|openapi\.json$)/;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type TJson = Record<string, any>;
type TResponseSpec = { headers?: Record<string, { required?: boolean; schema?: TJson }>; content?: Record<string, { schema?: TJson }> };
type TPath = { template: string; pattern: RegExp; params: number; item: TJson };
type TSeen = { status: number; headers: Headers; text: string };

export class OpenApiDocument {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly paths: TPath[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: TJson) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
    this.paths = Object.entries(doc.paths as Record<string, TJson>)
      .map(([template, item]) => ({
        template,
        item,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => a.params - b.params);
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.getSchema(`openapi.json#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer}`);
      this.validators.set(pointer, v);
    }
    return v;
  }

  private check(pointer: string, value: unknown, what: string): string[] {
    const v = this.validator(pointer);
    if (v(value)) return [];
    return (v.errors ?? []).map(
      (e) => `${what}${e.instancePath || ''} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
    );
  }

  private problem(res: TSeen, body: unknown, method: string): string[] {
    if (!/^application\/problem\+json/.test(res.headers.get('content-type') ?? ''))
      return [`not a problem+json answer (content-type ${res.headers.get('content-type')})`];
    return method.toUpperCase() === 'HEAD' ? [] : this.check('/components/schemas/Problem', body, 'body');
  }

  /**
   * Why the document does not describe this response (empty when it does). `operation` names what
   * it was checked against: "GET /v1/grants/{id}", or "unknown path" / "method not allowed".
   */
  explain(method: string, pathname: string, res: TSeen): { operation: string; failures: string[] } {
    const body = parseBody(res);
    const normal = pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
    if (normal !== pathname) {
      // Redirected to the normalised path, or (the front door's refusals) answered as that path.
      if (res.status !== 308) return this.explain(method, normal, res);
      const location = res.headers.get('location');
      const failures = location && new URL(location, 'http://x').pathname === normal ? [] : [`${pathname} answered 308 to ${location}, not to ${normal}`];
      return { operation: 'redirect to the normalised path', failures };
    }
    const found = this.paths.find((p) => p.pattern.test(pathname));
    if (!found) {
      const failures =
        res.status === 404 ? this.problem(res, body, method) : [`${pathname} is in no path of the document, and the answer is ${res.status}, not 404`];
      return { operation: 'unknown path', failures };
    }
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    if (verb === 'options') {
      const allow = res.headers.get('allow') ?? '';
      const documented = METHODS.filter((m) => found.item[m]).map((m) => m.toUpperCase());
      const failures =
        res.status === 204 && documented.every((m) => allow.includes(m))
          ? []
          : [`OPTIONS answered ${res.status} with Allow "${allow}"; the document has ${documented.join(', ')}`];
      return { operation: `OPTIONS ${found.template}`, failures };
    }
    const operation = found.item[verb] as TJson | undefined;
    if (!operation) {
      const failures =
        res.status === 405
          ? [...this.problem(res, body, method), ...(res.headers.get('allow') ? [] : ['a 405 without Allow'])]
          : [`${method} is not an operation of ${found.template}, and the answer is ${res.status}, not 405`];
      return { operation: 'method not allowed', failures };
    }
    const name = `${verb.toUpperCase()} ${found.template}`;
    const responses = operation.responses as Record<string, TResponseSpec>;
    const key = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return { operation: name, failures: [`status ${res.status} is not among the documented ${Object.keys(responses).join(', ')}`] };
    const spec = responses[key];
    const base = `/paths/${pointerPart(found.template)}/${verb}/responses/${key}`;
    const failures: string[] = [];
    for (const [header, h] of Object.entries(spec.headers ?? {})) {
      const value = res.headers.get(header);
      if (value === null) {
        if (h.required) failures.push(`header ${header} is missing`);
      } else if (h.schema) {
        failures.push(...this.check(`${base}/headers/${pointerPart(header)}/schema`, value, `header ${header}`));
      }
    }
    if (method.toUpperCase() !== 'HEAD') {
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      if (!spec.content) {
        if (res.text !== '') failures.push(`a body where the document has none: ${res.text.slice(0, 100)}`);
      } else if (!spec.content[contentType]) {
        failures.push(`content-type ${contentType || '(none)'} is not among the documented ${Object.keys(spec.content).join(', ')}`);
      } else if (spec.content[contentType].schema && contentType === 'application/x-ndjson') {
        // NDJSON: the schema is each line's.
        res.text.split('\n').forEach((line, i) => {
          if (line) failures.push(...this.check(`${base}/content/${pointerPart(contentType)}/schema`, parseLine(line), `line ${i + 1}`));
        });
      } else if (spec.content[contentType].schema) {
        failures.push(...this.check(`${base}/content/${pointerPart(contentType)}/schema`, body, 'body'));
      }
    }
    return { operation: name, failures };
  }
}

function pointerPart(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

function parseBody(res: TSeen): unknown {
  if (!/json/.test(res.headers.get('content-type') ?? '') || !res.text) return res.text;
  try {
    return JSON.parse(res.text);
  } catch {
    return res.text;
  }
}

// ---- per test process: the served documents, and the count -------------------------------------

const documents = new Map<string, Promise<OpenApiDocument | null>>();
const seen = { responses: 0, operations: new Set<string>() };

/** The document an app serves (null for an instance without the service: SERVICE_MODE=off). */
function documentOf(origin: string): Promise<OpenApiDocument | null> {
  let doc = documents.get(origin);
  if (!doc) {
    doc = fetch(`${origin}/openapi.json`).then(async (res) => (res.status === 200 ? new OpenApiDocument(await res.json()) : null));
    documents.set(origin, doc);
    doc.catch(() => documents.delete(origin));
  }
  return doc;
}

/** Checks a response of the app at `origin`; throws an AssertionError when the document does not describe it. */
export async function assertDocumented(origin: string, method: string, url: string, res: TSeen): Promise<void> {
  const { pathname } = new URL(url, origin);
  if (!SERVICE_PATH.test(pathname)) return;
  const doc = await documentOf(origin);
  if (!doc) return;
  const { operation, failures } = doc.explain(method, pathname, res);
  if (failures.length) {
    throw new AssertionError({
      message: `the OpenAPI document does not describe ${method} ${pathname} → ${res.status} (checked as ${operation}):\n  ${failures.join('\n  ')}\n  body: ${res.text.slice(0, 400)}`,
    });
  }
  seen.responses++;
  seen.operations.add(operation);
}

process.on('exit', () => {
  if (!seen.responses) return;
  fs.mkdirSync(CHECKS_DIR, { recursive: true });
  fs.writeFileSync(path.join(CHECKS_DIR, `${process.pid}.json`), JSON.stringify({ responses: seen.responses, operations: [...seen.operations] }));
});
