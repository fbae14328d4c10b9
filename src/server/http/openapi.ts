import { type core, toJSONSchema } from 'zod';
import type { Rec } from '../../formats/json/record.js';
import { RESOURCES, type Resource } from '../../resources/index.js';
import { contractSchema } from '../../schemas/coverages.js';
import { notificationSchema } from '../../schemas/notifications.js';
import { VERSION } from '../../version.js';
import { SANDBOX_PATHS } from './openapi-sandbox.js';

// The API's OpenAPI 3.1 contract, built from the zod schemas that check requests and the registry that
// routes them, so the document cannot drift from the server. `clinadmin serve` answers it at
// /openapi.json; `clinadmin openapi` prints it; openapi.json at the top of the repo is a copy.

/** The schema's JSON Schema (2020-12, the dialect of OpenAPI 3.1) without its `$schema` line. */
function jsonSchema(schema: core.$ZodType, io: 'input' | 'output'): Rec {
  const { $schema: _, ...rest } = toJSONSchema(schema, { io, unrepresentable: 'any' }) as Rec;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const title = (res: Resource) => res.noun[0].toUpperCase() + res.noun.slice(1);
const json = (schema: Rec) => ({ 'application/json': { schema } });

const retryAfter = {
  'Retry-After': { description: 'seconds to wait before sending the request again', schema: { type: 'integer' } },
};

/** Every error the server sends, by status: each is problem+json (RFC 9457). */
const ERRORS: Record<string, { description: string; headers?: Rec }> = {
  400: { description: 'the body is not a valid record (each field named in `errors`), or not JSON' },
  401: {
    description: 'no token, or a token the server does not accept',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  },
  404: { description: 'no record has this id' },
  408: { description: 'the request took too long to arrive' },
  409: { description: 'another record already has this natural key' },
  413: { description: 'the body is larger than the server accepts' },
  414: { description: 'the URL is too long' },
  415: { description: 'the body is not sent as application/json in UTF-8' },
  422: { description: 'the body names a contract the server does not know' },
  429: { description: 'too many requests: nothing was changed; send again after Retry-After', headers: retryAfter },
  431: { description: 'the request headers are too large' },
  500: { description: 'the server met an unexpected fault' },
  503: { description: 'the server cannot take the request now: nothing was changed', headers: retryAfter },
};

function errors(statuses: number[]): Rec {
  const always = [401, 408, 414, 429, 431, 500, 503];
  return Object.fromEntries(
    [...new Set([...statuses, ...always])]
      .sort((a, b) => a - b)
      .map((s) => [String(s), { ...ERRORS[s], content: { 'application/problem+json': { schema: ref('Problem') } } }]),
  );
}

const idParameter = (res: Resource) => ({
  name: 'id',
  in: 'path',
  required: true,
  description: `the ${res.noun}'s id`,
  schema: { type: 'string', minLength: 1 },
});

function operations(res: Resource): Rec {
  const name = title(res);
  const plural = res.plural[0].toUpperCase() + res.plural.slice(1);
  const one = { description: `the ${res.noun}`, content: json(ref(name)) };
  const list = {
    get: {
      operationId: `list${plural}`,
      summary: `List ${res.plural}`,
      tags: [res.group],
      responses: {
        200: { description: `every ${res.noun}`, content: json({ type: 'array', items: ref(name) }) },
        ...errors([400]),
      },
    },
  } as Rec;
  const item = {
    parameters: [idParameter(res)],
    get: {
      operationId: `get${name}`,
      summary: `Show one ${res.noun}`,
      ...(res.key ? {} : { description: 'Adds the caller to `seenBy`.' }),
      tags: [res.group],
      responses: { 200: one, ...errors([400, 404]) },
    },
  } as Rec;
  if (res.key) {
    const refusals = res.fields.contract ? [400, 409, 413, 415, 422] : [400, 409, 413, 415];
    list.post = {
      operationId: `create${name}`,
      summary: `Create a ${res.noun}`,
      tags: [res.group],
      requestBody: { required: true, content: json(ref(`${name}Create`)) },
      responses: { 200: { description: `the created ${res.noun}`, content: json(ref(name)) }, ...errors(refusals) },
    };
    item.patch = {
      operationId: `update${name}`,
      summary: `Change fields of a ${res.noun}: fields sent are set, fields left out stay`,
      tags: [res.group],
      requestBody: { required: true, content: json(ref(`${name}Patch`)) },
      responses: {
        200: { description: `the updated ${res.noun}`, content: json(ref(name)) },
        ...errors([...refusals, 404]),
      },
    };
    item.delete = {
      operationId: `delete${name}`,
      summary: `Delete a ${res.noun}`,
      tags: [res.group],
      responses: { 200: { description: `the deleted ${res.noun}`, content: json(ref(name)) }, ...errors([400, 404]) },
    };
  }
  return { [res.path]: list, [`${res.path}/{id}`]: item };
}

async function resourceSchemas(): Promise<Rec> {
  const out: Rec = {};
  for (const res of RESOURCES) {
    const name = title(res);
    if (!res.schemas) {
      out[name] = jsonSchema(notificationSchema, 'output');
      continue;
    }
    const { create, patch, entity } = await res.schemas();
    out[`${name}Create`] = jsonSchema(create, 'input');
    out[`${name}Patch`] = jsonSchema(patch, 'input');
    out[name] = jsonSchema(entity, 'output');
  }
  return out;
}

const PROBLEM = {
  type: 'object',
  description: 'RFC 9457 problem details',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: {
      type: 'array',
      description: 'one entry per field in error',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/** The serve extensions: a health check and this document (both public), and the contracts on file. */
const EXTRA_PATHS = {
  '/healthz': {
    get: {
      operationId: 'health',
      summary: 'Answers once the data file is open (public: no token), for CI wait loops',
      tags: ['serve'],
      security: [],
      responses: {
        200: {
          description: 'the server is ready',
          content: json({
            type: 'object',
            required: ['status'],
            properties: { status: { const: 'ok' } },
            additionalProperties: false,
          }),
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This document (public: no token)',
      tags: ['serve'],
      security: [],
      responses: { 200: { description: 'the OpenAPI 3.1 document', content: json({ type: 'object' }) } },
    },
  },
  '/contracts': {
    get: {
      operationId: 'listContracts',
      summary: 'The contracts a coverage may name (a clinadmin serve extension: the real service may lack it)',
      tags: ['serve'],
      responses: {
        200: { description: 'every contract', content: json({ type: 'array', items: ref('Contract') }) },
        ...errors([400]),
      },
    },
  },
};

/** The whole document; the same on every call, so the committed copy can be compared byte for byte. */
export async function openapiDocument(): Promise<Rec> {
  const paths: Rec = {};
  for (const res of RESOURCES) Object.assign(paths, operations(res));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Diagnostic measures, insurance coverages and notifications API',
      version: VERSION,
      description:
        'The API that clinadmin administers, as its bundled server (`clinadmin serve`) implements it. ' +
        'Every success is 200; every error is application/problem+json.',
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'clinadmin serve on its default port' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'measures', description: 'diagnostic measures' },
      { name: 'coverages', description: 'insurance coverages' },
      { name: 'notifications', description: 'notifications (read-only)' },
      { name: 'serve', description: 'extensions of clinadmin serve' },
      { name: 'sandbox', description: 'clinadmin serve as a test double: snapshots, reset, the request journal' },
    ],
    paths: { ...paths, ...EXTRA_PATHS, ...SANDBOX_PATHS },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the API token' } },
      schemas: { ...(await resourceSchemas()), Contract: jsonSchema(contractSchema, 'output'), Problem: PROBLEM },
    },
  };
}

/** The document as the server sends it and as openapi.json holds it. */
export async function openapiText(): Promise<string> {
  return `${JSON.stringify(await openapiDocument(), null, 2)}\n`;
}
