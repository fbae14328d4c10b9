import type { Command } from 'commander';
import type { RunState } from '../cli.js';
import type { Ctx } from '../context.js';
import { apiCommand } from './api.js';
import { completionCommand, completeIdsCommand } from './completion.js';
import { configCommand } from './config.js';
import { coveragesCommand } from './coverages/index.js';
import { loginCommand, logoutCommand, whoamiCommand } from './login.js';
import { measuresCommand } from './measures/index.js';
import { notificationsCommand } from './notifications/index.js';
import { serveCommand } from './serve.js';

/** The command tree, in the order `--help` lists it. */
export const commandGroups: ((ctx: Ctx, state: RunState) => Command)[] = [
  measuresCommand,
  coveragesCommand,
  notificationsCommand,
  loginCommand,
  logoutCommand,
  whoamiCommand,
  configCommand,
  apiCommand,
  serveCommand,
  completionCommand,
  completeIdsCommand,
];
