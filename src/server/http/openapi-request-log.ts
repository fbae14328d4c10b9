// The sandbox endpoints that tell a test what the request log cannot list, and change how requests are
// answered: GET /_admin/journal and /_admin/faults.

import type { Rec } from '../../formats/json/record.js';

// The pieces every sandbox endpoint's description is made of, openapi-sandbox.ts's too.
export const json = (schema: Rec) => ({ 'application/json': { schema } });
/** A problem+json answer as the document describes it (problem.ts's problem() makes the body itself). */
export const problemAnswer = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
export const count = { type: 'integer', minimum: 0 };
/** The answers every admin route may give besides its own. */
export const common = {
  401: problemAnswer('no token, or a token the server does not accept'),
  403: problemAnswer('a token not marked admin when serve started (--token TOKEN:ACCOUNT:admin)'),
  405: problemAnswer('another method'),
};

const FAULTS_SET: Rec = {
  type: 'object',
  additionalProperties: false,
  properties: {
    failOn: { type: 'array', maxItems: 100, items: { type: 'string', examples: ['POST:/insurance-coverages:500'] } },
    latency: { type: ['string', 'integer'], examples: ['50-200'] },
  },
};
const FAULTS: Rec = {
  type: 'object',
  required: ['failOn', 'latency'],
  properties: { failOn: { type: 'array', items: { type: 'string' } }, latency: { type: ['string', 'null'] } },
};

/** GET /_admin/journal (the request log's facts) and /_admin/faults. */
export const FACTS_AND_FAULTS_PATHS: Rec = {
  '/_admin/faults': {
    get: {
      operationId: 'listFaults',
      summary: 'The faults set at run time (those serve started with are in its log line)',
      tags: ['sandbox'],
      responses: { 200: { description: 'the faults set', content: json(FAULTS) }, ...common },
    },
    put: {
      operationId: 'setFaults',
      summary:
        "Replace the faults set at run time: failOn rules in serve --fail-on's grammar (METHOD:PATH-PATTERN:STATUS), " +
        'checked first, and a latency (MS or MIN-MAX) in place of --latency; recorded as an admin action, ' +
        'cleared by DELETE or any reset',
      tags: ['sandbox'],
      requestBody: { required: true, content: json(FAULTS_SET) },
      responses: {
        200: { description: 'the faults set', content: json(FAULTS) },
        400: problemAnswer('a rule or a latency serve --fail-on or --latency would refuse'),
        ...common,
      },
    },
    delete: {
      operationId: 'clearFaults',
      summary: 'Clear the faults set at run time',
      tags: ['sandbox'],
      responses: { 200: { description: 'none set', content: json(FAULTS) }, ...common },
    },
  },
  '/_admin/journal': {
    get: {
      operationId: 'journalFacts',
      summary:
        "What a check of the request journal cannot see in its list: the names its filters can take (the tokens' " +
        'accounts, the marks, the routes), its limits, and for the window since a mark (or the last clear) the ' +
        'requests it dropped and those refused for want of a valid token (counted apart, never listed)',
      tags: ['sandbox'],
      parameters: [{ name: 'since', in: 'query', schema: { type: 'string' } }],
      responses: {
        200: {
          description: 'the facts; window is null for a mark the journal does not have',
          content: json({
            type: 'object',
            required: ['requests', 'bytes', 'bodies', 'headers', 'accounts', 'marks', 'routes', 'since', 'window'],
            properties: {
              requests: { ...count, description: 'serve --journal-requests (0: the journal is off)' },
              bytes: { ...count, description: 'serve --journal-bytes' },
              bodies: { type: 'boolean', description: 'serve --record-bodies' },
              headers: { type: 'array', items: { type: 'string' }, description: 'the request headers it keeps' },
              accounts: { type: 'array', items: { type: 'string' } },
              marks: { type: 'array', items: { type: 'string' } },
              routes: { type: 'array', items: { type: 'string' } },
              since: { type: ['string', 'null'] },
              actions: {
                type: 'array',
                description: 'the last 100 admin actions that change how requests are answered (faults set, cleared)',
                items: {
                  type: 'object',
                  properties: { time: { type: 'integer' }, account: { type: 'string' }, action: { type: 'string' } },
                },
              },
              window: {
                type: ['object', 'null'],
                required: ['dropped', 'refused'],
                properties: {
                  dropped: { ...count, description: 'requests of the window recorded and no longer held' },
                  limit: { enum: ['journal-requests', 'journal-bytes'], description: 'the limit that dropped them' },
                  refused: {
                    ...count,
                    description: 'requests that named no valid token: answered 401 or 403, or never read',
                  },
                },
              },
            },
          }),
        },
        ...common,
      },
    },
  },
};
