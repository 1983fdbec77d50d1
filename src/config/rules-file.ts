import { readCapped, readFailure } from '../lib/read-capped';
import { MAX_RULES_FILE_BYTES, parseRules, rulesFileTooLarge, type RulesResult } from '../rules/parse';

/** Reads and checks a rules file; every problem as `FILE:LINE:COL: message` (the rules are checked by rules/parse.ts, which reads no file). */
export async function loadRulesFile(path: string, env: Record<string, string | undefined> = process.env): Promise<RulesResult> {
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(path, MAX_RULES_FILE_BYTES);
  } catch (err) {
    return { ok: false, problems: [`${path}: cannot read: ${readFailure(err)}`] };
  }
  if ('tooLarge' in read) return { ok: false, problems: [rulesFileTooLarge(path, read.tooLarge)] };
  return parseRules(read.text, path, env);
}
