import { compile, literal, prop } from '../../src/lib/compile';

describe('compile', () => {
  it('makes a named function of its parameters that sees the scope it is given', () => {
    const add = compile<(a: number) => number>('addOffset', ['a'], 'return a + offset;', { offset: 40 });
    expect(add(2)).toBe(42);
    expect(add.name).toBe('addOffset');
  });

  it('writes names as string literals, so any text is a property name and never code', () => {
    expect(literal('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(prop('o', 'x"); throw 1; ("')).toBe('o["x\\"); throw 1; (\\""]');
    const read = compile<(o: Record<string, number>) => number>('read', ['o'], `return ${prop('o', 'x"); throw 1; ("')};`);
    expect(read({ 'x"); throw 1; ("': 7 })).toBe(7);
  });

  it('runs the body in strict mode', () => {
    const assign = compile<() => void>('assign', [], 'undeclared = 1;');
    expect(() => assign()).toThrow(ReferenceError);
  });

  it('fails at once on a body that does not parse', () => {
    expect(() => compile('broken', [], 'return {;')).toThrow(SyntaxError);
  });
});
