import { readFile } from 'node:fs/promises';
import { loadYaml } from '../lib/yaml-schema';
import { compileRule } from './compile';
import type { Rule } from './model';
import { rulesFileSchema } from './schema';

export type RulesResult = { ok: true; rules: Rule[] } | { ok: false; problems: string[] };

export function parseRules(text: string, fileName: string, env: Record<string, string | undefined>): RulesResult {
  const result = loadYaml(text, fileName, rulesFileSchema, env);
  if (!result.ok) return result;
  return { ok: true, rules: result.value.rules.map(compileRule) };
}

/** Reads and checks a rules file; every problem as `FILE:LINE:COL: message`. */
export async function loadRulesFile(path: string, env: Record<string, string | undefined> = process.env): Promise<RulesResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return { ok: false, problems: [`${path}: cannot read: ${err instanceof Error ? err.message : String(err)}`] };
  }
  return parseRules(text, path, env);
}
