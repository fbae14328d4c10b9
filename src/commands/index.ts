import type { Command } from 'commander';
import type { Ctx, RunState } from '../context.js';
import { apiCommand } from './api.js';
import { completeIdsCommand, completionCommand } from './completion.js';
import { configCommand } from './config.js';
import { coveragesCommand } from './coverages/index.js';
import { loginCommand, logoutCommand, whoamiCommand } from './login.js';
import { measuresCommand } from './measures/index.js';
import { notificationsCommand } from './notifications/index.js';
import { openapiCommand } from './openapi.js';
import { sandboxCommand } from './sandbox/index.js';
import { serveCommand } from './serve.js';

export interface Group {
  name: string;
  description: string;
  /** Fills the group's command (already named and described) with its options, verbs and action. */
  make: (cmd: Command, ctx: Ctx, state: RunState) => Command;
  hidden?: boolean;
  /** Needs every group in full when it runs (completion prints the whole tree). */
  wantsAllGroups?: boolean;
}

/** The command tree, in the order `--help` lists it. */
export const commandGroups: Group[] = [
  {
    name: 'measures',
    description: 'Diagnostic measures: the measurable items of a medical test',
    make: measuresCommand,
  },
  {
    name: 'coverages',
    description: 'Insurance coverages: rules of a contract between insured and insurer',
    make: coveragesCommand,
  },
  {
    name: 'notifications',
    description: 'Notifications: read-only messages, and who has seen them',
    make: notificationsCommand,
  },
  {
    name: 'login',
    description: 'Check a base URL and token with one request, and store them in a profile',
    make: loginCommand,
  },
  {
    name: 'logout',
    description: 'Remove the stored token of the profile (its base URL and account stay)',
    make: logoutCommand,
  },
  {
    name: 'whoami',
    description: 'Show the profile, base URL, masked token and account in use, and whether the server answers',
    make: whoamiCommand,
  },
  {
    name: 'config',
    description: 'Read and change the stored settings of a profile (keys: base-url, token, account)',
    make: configCommand,
  },
  { name: 'api', description: 'Send a raw request to the API and print the response body', make: apiCommand },
  { name: 'serve', description: 'Run the bundled reference API on a local JSON data file', make: serveCommand },
  {
    name: 'sandbox',
    description: 'serve as a test double: snapshots, reset between tests, and the requests it answered',
    make: sandboxCommand,
  },
  {
    name: 'openapi',
    description: "Print the API's OpenAPI 3.1 document, the contract clinadmin serve keeps (also at /openapi.json)",
    make: openapiCommand,
  },
  {
    name: 'completion',
    description: 'Print a shell completion script (bash, zsh or fish)',
    make: completionCommand,
    wantsAllGroups: true,
  },
  { name: '__complete', description: 'Print ids for shell completion', make: completeIdsCommand, hidden: true },
];
