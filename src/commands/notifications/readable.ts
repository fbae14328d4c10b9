import type { Ctx } from '../../context.js';
import { age } from '../../core/notifications.js';
import { localTime } from '../../output/columns.js';
import { layoutWidth, visible } from '../../output/text.js';
import { colorEnabled, theme } from '../../output/theme.js';
import { wrapText } from '../../output/wrap.js';
import { epochMs } from '../../resources/time.js';

/** A notification as support staff read it: title, type and code, time and age, body, meta, who saw it. */
export async function readable(ctx: Ctx, n: Record<string, unknown>, color: boolean | undefined): Promise<string> {
  const t = await theme(colorEnabled(ctx, ctx.stdout, color));
  const width = Math.max(40, Math.min(layoutWidth(ctx.stdout, ctx.env), 200) - 2);
  const created = typeof n.createdAt === 'number' ? `${localTime(n.createdAt)} (${age(epochMs(n.createdAt)!)})` : '';
  const seenBy = (n.seenBy as string[] | undefined) ?? [];
  const lines = [
    t.bold(visible(String(n.title ?? '(no title)'), true)),
    t.dim(visible(`${n.type ?? ''} · ${n.code ?? ''} · ${n.id}`, true)),
    t.dim(created),
    '',
    wrapText(visible(String(n.body ?? '')), width),
    '',
  ];
  if (n.meta !== undefined)
    lines.push(
      t.bold('meta'),
      visible(JSON.stringify(n.meta, null, 2))
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
      '',
    );
  lines.push(`${t.bold('seen by')} ${seenBy.length > 0 ? visible(seenBy.join(', '), true) : 'nobody yet'}`);
  return `${lines.join('\n')}\n`;
}
