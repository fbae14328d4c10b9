// The sandbox endpoints of clinadmin serve in the OpenAPI document: a tag of their own.

import type { Rec } from '../../formats/json/record.js';
import { common, count, FACTS_AND_FAULTS_PATHS, json, problemAnswer } from './openapi-request-log.js';

const SNAPSHOT: Rec = {
  type: 'object',
  required: ['name', 'createdAt', 'measures', 'coverages', 'notifications'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' },
    createdAt: { type: 'integer', description: 'milliseconds since the epoch' },
    measures: count,
    coverages: count,
    notifications: count,
  },
};

const REQUEST: Rec = {
  type: 'object',
  required: ['time', 'method', 'path', 'status'],
  description:
    'a request that names no valid token (answered 401 or 403, two Authorization headers, or gone before its ' +
    'token was read) is not kept, only counted (GET /_admin/journal); /healthz and /openapi.json are not kept',
  properties: {
    time: { type: 'integer', description: 'milliseconds since the epoch' },
    method: { type: 'string' },
    path: { type: 'string', description: 'without the query' },
    query: { type: 'string' },
    status: { type: 'integer', description: 'the status answered; 0 when the client left before any answer' },
    account: { type: 'string', description: "the token's account" },
    durationMs: { type: 'number' },
    body: {
      description:
        'the request body as sent, only with serve --record-bodies, for a request (accepted or refused) whose body ' +
        'serve read as JSON and is at most an eighth of --journal-bytes',
    },
    bodyStart: {
      type: 'string',
      description: 'otherwise (a body that is not JSON, a larger one) its first 256 characters',
      maxLength: 256,
    },
    bodyBytes: { type: 'integer', description: "the whole body's size in bytes, beside bodyStart" },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 256 },
      description:
        'the allow-listed request headers it sent, by lowercase name (idempotency-key, x-request-id, content-type, ' +
        'user-agent, and those serve --journal-header adds); never authorization or cookies',
    },
  },
};

const STATE_COUNTS: Rec = {
  type: 'object',
  required: ['merge', 'measures', 'coverages', 'notifications', 'contracts'],
  properties: { merge: { type: 'boolean' }, measures: count, coverages: count, notifications: count, contracts: count },
};

const CONTRACT: Rec = {
  type: 'object',
  required: ['id', 'insured', 'insurer'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    insured: { type: 'string', minLength: 1 },
    insurer: { type: 'string', minLength: 1 },
    insurerType: { type: 'string' },
    insurerSubtype: { type: 'string' },
  },
};

/** The sandbox's state and request log operations beyond snapshots: load, contracts, marks, faults. */
const MORE_PATHS: Rec = {
  '/_admin/load': {
    post: {
      operationId: 'loadState',
      summary:
        "Replace the server's whole state with the body's (a data file's collections, or a list of measures, " +
        'coverages or notifications, service-set fields optional), in one journal line and with no notification; ' +
        'a reset without a snapshot returns to it. With merge=true, add the records and replace those with the ' +
        'same id (or, without an id, the same natural key)',
      tags: ['sandbox'],
      parameters: [{ name: 'merge', in: 'query', schema: { type: 'boolean' } }],
      requestBody: {
        required: true,
        content: json({ oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] }),
      },
      responses: {
        200: { description: 'what the server holds now', content: json(STATE_COUNTS) },
        400: problemAnswer('a record that breaks the data file rules, named with its field'),
        ...common,
      },
    },
  },
  '/_admin/contracts': {
    post: {
      operationId: 'addContract',
      summary: 'Add a contract, so coverages for it can be created; the same contract again changes nothing',
      tags: ['sandbox'],
      requestBody: { required: true, content: json(CONTRACT) },
      responses: {
        200: { description: 'the contract on file', content: json(CONTRACT) },
        400: problemAnswer('a contract without id, insured or insurer, or with another field'),
        409: problemAnswer('a contract with this id and other values is on file'),
        ...common,
      },
    },
  },
  ...FACTS_AND_FAULTS_PATHS,
  '/_admin/marks/{name}': {
    post: {
      operationId: 'markRequests',
      summary: 'Mark the request journal here: GET /_admin/requests?since=NAME lists only what came after',
      tags: ['sandbox'],
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: {
          description: 'marked',
          content: json({
            type: 'object',
            required: ['mark', 'requests'],
            properties: { mark: { type: 'string' }, requests: count },
          }),
        },
        400: problemAnswer('a name that is not letters, digits, ".", "_" and "-", or a 1,001st mark'),
        ...common,
      },
    },
  },
};

/**
 * `/_admin/…`: snapshots and reset, and the request log, for test suites that use serve as a double; a token
 * marked admin when serve starts.
 */
export const SANDBOX_PATHS: Rec = {
  '/_admin/snapshots/{name}': {
    post: {
      operationId: 'saveSnapshot',
      summary: "Save the server's whole state (measures, coverages, contracts, notifications) under a name",
      tags: ['sandbox'],
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: { description: 'saved, as a file beside the data file', content: json(SNAPSHOT) },
        400: problemAnswer('a name that is not letters, digits, ".", "_" and "-", or that holds ".."'),
        ...common,
      },
    },
  },
  '/_admin/snapshots': {
    get: {
      operationId: 'listSnapshots',
      summary: 'The saved snapshots, by name',
      tags: ['sandbox'],
      responses: {
        200: { description: 'every snapshot', content: json({ type: 'array', items: SNAPSHOT }) },
        ...common,
      },
    },
  },
  '/_admin/reset': {
    post: {
      operationId: 'reset',
      summary:
        'Restore a snapshot, or without a body the state the server started with: in one journal line, durable ' +
        'before the answer; adds no notification and clears the request journal',
      tags: ['sandbox'],
      requestBody: {
        required: false,
        content: json({ type: 'object', properties: { snapshot: { type: 'string' } }, additionalProperties: false }),
      },
      responses: {
        200: {
          description: 'the state restored',
          content: json({
            type: 'object',
            required: ['snapshot', 'measures', 'coverages', 'notifications'],
            properties: {
              snapshot: { type: ['string', 'null'] },
              measures: count,
              coverages: count,
              notifications: count,
            },
          }),
        },
        400: problemAnswer('a body that is not {"snapshot": NAME}'),
        404: problemAnswer('no snapshot of that name'),
        ...common,
      },
    },
  },
  '/_admin/requests': {
    get: {
      operationId: 'listRequests',
      summary:
        'The last requests the server answered, oldest first (serve --journal-requests, default 10,000, and ' +
        '--journal-bytes, default 32 MiB); never the ' +
        'Authorization header; /_admin/ and /healthz are not recorded',
      tags: ['sandbox'],
      parameters: [
        { name: 'method', in: 'query', schema: { type: 'string' } },
        {
          name: 'path',
          in: 'query',
          description: 'a glob: * matches any characters, / included',
          schema: { type: 'string' },
        },
        { name: 'status', in: 'query', schema: { type: 'integer' } },
        { name: 'account', in: 'query', description: 'the account of the token used', schema: { type: 'string' } },
        {
          name: 'since',
          in: 'query',
          description: 'only requests recorded after this mark (POST /_admin/marks/{name})',
          schema: { type: 'string' },
        },
        {
          name: 'header',
          in: 'query',
          description: 'NAME=VALUE, repeatable: the request sent that header with that value (a name not kept: 400)',
          schema: { type: 'array', items: { type: 'string' } },
          explode: true,
        },
        {
          name: 'body',
          in: 'query',
          description:
            'JSON the recorded body must hold: its fields with values that hold theirs (extra fields ignored), each ' +
            'array element held, in order, by a distinct element (extra elements ignored), other values equal; ' +
            'needs serve --record-bodies (else 400)',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: { description: 'the requests that match', content: json({ type: 'array', items: REQUEST }) },
        400: problemAnswer(
          'a status that is not an HTTP status, a body that is not JSON, or a body filter without --record-bodies',
        ),
        404: problemAnswer('no mark of that name'),
        ...common,
      },
    },
    delete: {
      operationId: 'clearRequests',
      summary: 'Empty the request journal',
      tags: ['sandbox'],
      responses: {
        200: { description: 'emptied', content: json({ type: 'object', properties: { cleared: { const: true } } }) },
        ...common,
      },
    },
  },
  ...MORE_PATHS,
};
