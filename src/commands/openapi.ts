import type { Command } from 'commander';
import type { Ctx, RunState } from '../context.js';
import { writeOut } from '../output/text-out.js';

export function openapiCommand(cmd: Command, ctx: Ctx, _state: RunState): Command {
  return cmd
    .addHelpText(
      'after',
      `
The document is generated from the schemas that check every request, so it is the contract
clinadmin serve keeps. Offline: no server or token is needed.

Examples:
  $ clinadmin openapi > openapi.json
  $ curl -s http://127.0.0.1:4010/openapi.json   # the same document, from a running server`,
    )
    .action(async () => {
      const { openapiText } = await import('../server/http/openapi.js');
      await writeOut(ctx, await openapiText());
    });
}
