import type { Command } from 'commander';
import type { RunState } from '../cli.js';
import type { Ctx } from '../context.js';
import { serveCommand } from './serve.js';

/** The command tree, in the order `--help` lists it. */
export const commandGroups: ((ctx: Ctx, state: RunState) => Command)[] = [serveCommand];
