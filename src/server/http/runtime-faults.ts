// Faults a test sets while serve runs (`sandbox faults set`, `PUT /_admin/faults`): --fail-on's rules and a
// latency, on top of those serve started with, until cleared or a reset.

import { createFaults, parseFailOn, parseLatency } from './faults.js';
import { problem } from './problem.js';

/** At most this many rules at once: each request is matched against them all. */
const MAX_RULES = 100;

/** The faults set at run time, as given, and the injector made from them. */
export interface RuntimeFaults {
  latency?: string;
  failOn: string[];
  injector?: ReturnType<typeof createFaults>;
}

/** Why a body cannot be read as faults: the problem to answer. */
export class FaultsProblem extends Error {
  readonly answer = problem(400, this.message);
}

/** `{"failOn": ["METHOD:PATH:STATUS", …], "latency": "MS" | "MIN-MAX"}`, checked as serve checks its flags. */
export function readFaults(body: unknown): RuntimeFaults {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new FaultsProblem('send {"failOn": ["METHOD:PATH:STATUS", …], "latency": "MS or MIN-MAX"}');
  const { failOn = [], latency, ...other } = body as Record<string, unknown>;
  const extra = Object.keys(other)[0];
  if (extra !== undefined) throw new FaultsProblem(`${extra}: not a fault serve sets at run time (failOn, latency)`);
  if (!Array.isArray(failOn) || failOn.some((r) => typeof r !== 'string'))
    throw new FaultsProblem('failOn must be a list of METHOD:PATH-PATTERN:STATUS');
  if (failOn.length > MAX_RULES) throw new FaultsProblem(`failOn holds at most ${MAX_RULES} rules`);
  const rules = failOn.map((text: string) => {
    const rule = parseFailOn(text);
    if (!rule)
      throw new FaultsProblem(
        `failOn: ${JSON.stringify(text.slice(0, 200))} must be METHOD:PATH-PATTERN:STATUS, a status from 400 to 599`,
      );
    return rule;
  });
  if (latency !== undefined && typeof latency !== 'string' && typeof latency !== 'number')
    throw new FaultsProblem('latency must be MS or MIN-MAX whole milliseconds, at most 60000');
  const range = latency === undefined ? undefined : parseLatency(String(latency));
  if (latency !== undefined && !range)
    throw new FaultsProblem(`latency must be MS or MIN-MAX whole milliseconds, at most 60000; got ${String(latency)}`);
  const set: RuntimeFaults = { failOn: failOn as string[] };
  if (latency !== undefined) set.latency = String(latency);
  if (rules.length > 0 || range)
    set.injector = createFaults(
      { latency: range, failOn: rules },
      Date.now,
      Math.random,
      'sandbox faults set --fail-on',
    );
  return set;
}

/** The faults as GET /_admin/faults shows them. */
export const faultsView = (f: RuntimeFaults | undefined) => ({ failOn: f?.failOn ?? [], latency: f?.latency ?? null });
