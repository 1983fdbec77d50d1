import { z } from 'zod';
import { duration, MAX_TIMER_MS, withDefault } from '../../src/lib/schema-types';
import { loadYaml, type YamlIssue } from '../../src/lib/yaml-schema';

const schema = z
  .object({
    name: z.string(),
    count: z.number().int().default(1),
    every: withDefault(duration({ max: MAX_TIMER_MS }), 1_000),
    enabled: z.boolean().default(true),
    tags: z.array(z.string()).default([]),
    inner: z.object({ url: z.string(), level: z.enum(['low', 'high']).default('low') }).strict().optional(),
    items: z.array(z.object({ id: z.string(), note: z.string().optional() }).strict()).default([]),
  })
  .strict();

const env = { HOST: 'example.org', NUM: '42', FLAG: 'true', WORDS: 'a: b' };

function load(text: string, check?: (value: unknown) => YamlIssue[]) {
  return loadYaml(text, 'f.yaml', schema, env, check === undefined ? {} : { check });
}

describe('loadYaml: problems as FILE:LINE:COL: message', () => {
  it.each([
    ['a YAML syntax error', 'name: x\ntags: [a, b\ncount: 1\n', [
      'f.yaml:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]],
    ['a duplicate key (YAML itself forbids it)', 'name: x\nname: y\n', ['f.yaml:2:1: YAML syntax error: Map keys must be unique']],
    ['an unquoted ${VAR} in a flow map, with a hint', 'name: x\ninner: { url: ${HOST} }\n', [
      'f.yaml:2:16: YAML syntax error: Unexpected flow-map-start at node end (quote values that contain ${...} inside { } or [ ])',
    ]],
    ['an unknown top-level key, at the key', 'name: x\nnmae: y\n', [
      'f.yaml:2:1: unknown key "nmae" (expected one of: name, count, every, enabled, tags, inner, items)',
    ]],
    ['an unknown nested key, at the key', 'name: x\ninner:\n  url: u\n  levle: high\n', [
      'f.yaml:4:3: inner: unknown key "levle" (expected one of: url, level)',
    ]],
    ['an unknown key in a list item', 'name: x\nitems:\n  - id: a\n  - { id: b, nope: 1 }\n', [
      'f.yaml:4:14: items[1]: unknown key "nope" (expected one of: id, note)',
    ]],
    ['a missing key, at the map it belongs in', 'name: x\ninner:\n  level: high\n', ['f.yaml:3:3: inner: missing required key "url"']],
    ['a missing top-level key, at the document', '# comment\n\ncount: 2\n', ['f.yaml:3:1: missing required key "name"']],
    ['a wrong type', 'name: x\ncount: many\n', ['f.yaml:2:8: count: expected a number, got "many"']],
    ['a float for an integer', 'name: x\ncount: 1.5\n', ['f.yaml:2:8: count: expected an integer, got 1.5']],
    ['a map for a list', 'name: x\ntags: { a: 1 }\n', ['f.yaml:2:7: tags: expected a list, got a map']],
    ['an empty value', 'name:\n', ['f.yaml:1:6: name: expected a string, got an empty value']],
    ['a bad enum value', 'name: x\ninner: { url: u, level: max }\n', [
      'f.yaml:2:25: inner.level: expected one of low, high, got "max"',
    ]],
    ['a bad duration', 'name: x\nevery: 30x\n', ['f.yaml:2:8: every: invalid duration "30x" (use 500ms, 15s, 5m, 4h)']],
    ['an empty file', '', ['f.yaml:1:1: expected a map, got an empty value']],
    ['a list instead of a map', '- a\n', ['f.yaml:1:1: expected a map, got a list']],
    ['an unset variable, at its scalar', 'name: x\ninner:\n  url: "http://${NOPE}/"\n', [
      'f.yaml:3:8: inner.url: environment variable NOPE is not set (write ${NOPE:-default} to give a default)',
    ]],
    ['an unset variable, without the schema complaining about the same value', 'name: x\ncount: ${NOPE}\n', [
      'f.yaml:2:8: count: environment variable NOPE is not set (write ${NOPE:-default} to give a default)',
    ]],
    ['every problem, in file order', 'nmae: x\ncount: "3"\ninner:\n  level: mid\nevery: ${NOPE}\nenabled: 1\n', [
      'f.yaml:1:1: missing required key "name"',
      'f.yaml:1:1: unknown key "nmae" (expected one of: name, count, every, enabled, tags, inner, items)',
      'f.yaml:2:8: count: expected a number, got "3"',
      'f.yaml:4:3: inner: missing required key "url"',
      'f.yaml:4:10: inner.level: expected one of low, high, got "mid"',
      'f.yaml:5:8: every: environment variable NOPE is not set (write ${NOPE:-default} to give a default)',
      'f.yaml:6:10: enabled: expected true or false, got 1',
    ]],
  ])('reports %s', (_name, text, problems) => {
    expect(load(text)).toEqual({ ok: false, problems });
  });

  it('locates keys brought in by a << merge at the anchor', () => {
    const text = 'name: x\nbase: &b { id: a, nope: 1 }\nitems:\n  - <<: *b\n';
    const lax = z.object({ name: z.string(), base: z.unknown(), items: schema.shape.items });
    expect(loadYaml(text, 'f.yaml', lax, env)).toEqual({
      ok: false,
      problems: ['f.yaml:2:19: items[0]: unknown key "nope" (expected one of: id, note)'],
    });
  });

  it('reports what a check finds, at the value or at the key, said once', () => {
    const check = (): YamlIssue[] => [
      { path: ['items', 1, 'id'], message: 'duplicate id "a"' },
      { path: ['inner', 'url'], at: 'key', message: 'not here' },
      { path: ['inner', 'url'], at: 'key', message: 'not here' },
    ];
    expect(load('name: x\ninner:\n  url: u\nitems: [{ id: a }, { id: a }]\n', check)).toEqual({
      ok: false,
      problems: ['f.yaml:3:3: inner.url: not here', 'f.yaml:4:26: items[1].id: duplicate id "a"'],
    });
  });
});

describe('loadYaml: values', () => {
  it('fills defaults and converts durations', () => {
    expect(load('name: x\nevery: 5m\n')).toEqual({
      ok: true,
      value: { name: 'x', count: 1, every: 300_000, enabled: true, tags: [], items: [] },
    });
  });

  it.each([
    ['a variable in a string', 'name: "https://${HOST}/x"', 'name', 'https://example.org/x'],
    ['$$ as a literal $', 'name: "US$$ ${HOST}"', 'name', 'US$ example.org'],
    ['a default', 'name: ${NOPE:-fallback}', 'name', 'fallback'],
    ['an unquoted number', 'name: x\ncount: ${NUM}', 'count', 42],
    ['an unquoted boolean', 'name: x\nenabled: ${FLAG}', 'enabled', true],
    ['a quoted number stays a string', 'name: "${NUM}"', 'name', '42'],
    ['a value that looks like YAML stays a string', 'name: ${WORDS}', 'name', 'a: b'],
    ['a variable in a list', 'name: x\ntags: ["${HOST}", b]', 'tags', ['example.org', 'b']],
  ])('expands %s', (_name, text, key, expected) => {
    const result = load(text);
    expect(result.ok && result.value[key as keyof typeof result.value]).toEqual(expected);
  });

  it('does not expand keys', () => {
    const lax = z.record(z.string());
    expect(loadYaml('"${HOST}": v\n', 'f.yaml', lax, env)).toEqual({ ok: true, value: { '${HOST}': 'v' } });
  });
});
