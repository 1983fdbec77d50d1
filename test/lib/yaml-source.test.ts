import { formatPath, locate, parseYamlSource, position, tell, withPath, type PathSegment, type YamlSource } from '../../src/lib/yaml-source';

function source(text: string, merge = false): YamlSource {
  const parsed = parseYamlSource(text, 'f.yaml', { merge });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.source;
}

describe('parseYamlSource', () => {
  it.each([
    ['a flow list left open', 'a: [\n', '', ['f.yaml:2:1: Flow sequence in block collection must be sufficiently indented and end with a ]']],
    ['a duplicate key', 'a: 1\na: 2\n', 'YAML syntax error: ', ['f.yaml:2:1: YAML syntax error: Map keys must be unique']],
    ['an unquoted ${VAR} in a flow map, with a hint', 'a: { b: ${X} }\n', '', [
      'f.yaml:1:10: Unexpected flow-map-start at node end (quote values that contain ${...} inside { } or [ ])',
    ]],
  ])('reports %s as FILE:LINE:COL, behind the prefix given', (_what, text, syntaxPrefix, problems) => {
    expect(parseYamlSource(text, 'f.yaml', { syntaxPrefix })).toEqual({ ok: false, problems });
  });

  it('reads a well-formed document', () => {
    expect(source('a: 1\n').doc.toJS()).toEqual({ a: 1 });
  });
});

describe('locate', () => {
  const text = [
    'base: &base', //           1
    '  url: http://x', //       2
    'list:', //                 3
    '  - id: a', //             4
    '  - { id: b, n: 2 }', //   5
    'empty:', //                6
    'merged:', //               7
    '  <<: *base', //           8
    '  extra: 1', //            9
  ].join('\n');

  // The deepest node the document has on the path; an empty value is the point after its key.
  it.each<[PathSegment[], 'key' | 'value', string]>([
    [[], 'value', 'f.yaml:1:1'],
    [['list', 1, 'n'], 'value', 'f.yaml:5:17'],
    [['list', 1, 'n'], 'key', 'f.yaml:5:14'],
    [['list', 0], 'value', 'f.yaml:4:5'],
    [['list', 7, 'id'], 'value', 'f.yaml:4:3'],
    [['nope', 'deeper'], 'value', 'f.yaml:1:1'],
    [['empty'], 'value', 'f.yaml:6:7'],
    [['merged', 'url'], 'value', 'f.yaml:2:8'],
  ])('%j at the %s -> %s', (path, at, where) => {
    const s = source(text, true);
    expect(position(s, locate(s, path, at))).toBe(where);
  });
});

describe('tell', () => {
  it('tells problems in file order, each once', () => {
    const s = source('a: 1\nb: 2\n');
    expect(tell(s, [
      { offset: 5, message: 'second' },
      { offset: 0, message: 'first' },
      { offset: 5, message: 'second' },
      { offset: 5, message: 'also second' },
    ])).toEqual(['f.yaml:1:1: first', 'f.yaml:2:1: second', 'f.yaml:2:1: also second']);
  });
});

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['a', 0, 'b'], 'a[0].b'],
    [['headers', 'X-Key'], 'headers.X-Key'],
    [['match', 'a b'], 'match["a b"]'],
  ])('%j', (path, text) => {
    expect(formatPath(path)).toBe(text);
  });

  it('puts the path before a message, or nothing for the whole document', () => {
    expect(withPath(['a', 1], 'bad')).toBe('a[1]: bad');
    expect(withPath([], 'bad')).toBe('bad');
  });
});
