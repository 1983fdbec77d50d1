/**
 * Scenario files: a YAML timeline of actions. Every problem is reported at once, each as
 * `FILE:LINE:COL: message`; a coin or symbol that does not exist is not a parse error (the
 * market depends on --coins and on earlier steps) but a warning when the step runs.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { locate, parseYamlSource, position, tell, type PathSegment } from '../../lib/yaml-source';
import { duration } from '../actions/fields';
import { formatIssue, fromZodIssues, validateAction, type Issue } from '../actions/validate';
import { readFailure } from '../../lib/read-capped';
import { ScenarioError } from './scenario-error';
import { toPlain } from './to-plain';
import type { Scenario, ScenarioStep } from './types';

const TOP_KEYS = new Set(['name', 'description', 'repeat', 'steps']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseScenario(text: string, fileName: string): Scenario {
  const parsed = parseYamlSource(text, fileName);
  if (!parsed.ok) throw new ScenarioError(parsed.problems);
  const { source } = parsed;
  const issues: Issue[] = [];
  const data = toPlain(source.doc, source.doc.contents);
  const scenario: Scenario = { name: basename(fileName, extname(fileName)), repeat: null, steps: [] };
  if (!isRecord(data)) {
    issues.push({ path: [], message: 'a scenario is a mapping with `name`, optional `repeat` and a list of `steps`' });
  } else {
    for (const key of Object.keys(data)) if (!TOP_KEYS.has(key)) issues.push({ path: [key], message: `unknown field "${key}"` });
    if (data.name !== undefined) {
      if (typeof data.name === 'string' && data.name !== '') scenario.name = data.name;
      else issues.push({ path: ['name'], message: 'must be a non-empty string' });
    }
    if (data.description !== undefined) {
      if (typeof data.description === 'string') scenario.description = data.description;
      else issues.push({ path: ['description'], message: 'must be a string' });
    }
    if (data.repeat !== undefined) {
      const r = duration.safeParse(data.repeat);
      if (!r.success) issues.push(...fromZodIssues(r.error.issues, data.repeat, ['repeat']));
      else if (r.data === 0) issues.push({ path: ['repeat'], message: 'must be longer than 0' });
      else scenario.repeat = r.data;
    }
    if (!Array.isArray(data.steps)) issues.push({ path: data.steps === undefined ? [] : ['steps'], message: data.steps === undefined ? 'missing field "steps"' : 'must be a list of steps' });
    else data.steps.forEach((raw, i) => parseStep(raw, i, scenario, issues, (path) => position(source, locate(source, path))));
  }
  if (issues.length > 0) {
    // An unknown field is pointed at by its key, everything else by its value.
    throw new ScenarioError(tell(source, issues.map((issue) => ({
      offset: locate(source, issue.path, issue.message.startsWith('unknown field') ? 'key' : 'value'),
      message: formatIssue(issue),
    }))));
  }
  // Stable sort: steps with the same `at` run in file order.
  scenario.steps.sort((a, b) => a.at - b.at);
  return scenario;
}

function parseStep(raw: unknown, i: number, scenario: Scenario, issues: Issue[], where: (path: PathSegment[]) => string): void {
  const path = ['steps', i];
  if (!isRecord(raw)) {
    issues.push({ path, message: 'a step is a mapping with `at`, `action` and the action\'s fields' });
    return;
  }
  const { at, ...action } = raw;
  let atMs: number | undefined;
  if (at === undefined) {
    issues.push({ path, message: 'missing field "at"' });
  } else {
    const r = duration.safeParse(at);
    if (r.success) atMs = r.data;
    else issues.push(...fromZodIssues(r.error.issues, at, [...path, 'at']));
  }
  const v = validateAction(action, path);
  if (!v.ok) issues.push(...v.issues);
  if (atMs === undefined || !v.ok) return;
  if (scenario.repeat !== null && atMs >= scenario.repeat) {
    issues.push({ path: [...path, 'at'], message: `${String(at)} is not within the repeat period (steps of a loop run before it starts again)` });
    return;
  }
  scenario.steps.push({ at: atMs, action: v.value, where: where(path) } satisfies ScenarioStep);
}

/** A scenario file; one it cannot read is a ScenarioError too (`FILE: cannot read: no such file`). */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ScenarioError([`${path}: cannot read: ${readFailure(err)}`]);
  }
  return parseScenario(text, path);
}
