import type { Ctx } from '../../context.js';
import { prompter } from '../../output/prompts.js';
import { nameAnswer } from '../../schemas/names.js';
import { COVERAGE_TYPE_VALUES, PAYMENT_METHOD_VALUES } from '../../schemas/values.js';

/** Asks for what a coverage still needs: selects for the value sets. */
export async function promptCoverage(ctx: Ctx, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ask = await prompter(ctx);
  const out = { ...body };
  if (!out.contract) out.contract = await ask.text('Contract id (--contract):', { required: true });
  if (!out.name) out.name = await ask.text('Coverage name (--name):', { required: true, validate: nameAnswer });
  if (!out.type) out.type = await ask.choose('Type (--type):', COVERAGE_TYPE_VALUES);
  if (out.paymentMethod === undefined)
    out.paymentMethod = await ask.choose('Payment method (--payment-method):', PAYMENT_METHOD_VALUES);
  return out;
}
