import { expandEnv } from '../../src/lib/env-expand';

const env = { HOST: 'example.org', EMPTY: '', TRICK: '${HOST}', PRICE: '$5' };

describe('expandEnv', () => {
  it.each([
    ['no dollar at all', 'plain text', 'plain text', false],
    ['a variable', 'https://${HOST}/hook', 'https://example.org/hook', true],
    ['two variables', '${HOST}:${HOST}', 'example.org:example.org', true],
    ['$$ is a literal $', 'cost: $$5', 'cost: $5', false],
    ['$${HOST} is a literal ${HOST}', '$${HOST}', '${HOST}', false],
    ['a lone $ stays', 'USD$ and $5', 'USD$ and $5', false],
    ['a trailing $ stays', 'end$', 'end$', false],
    ['a default for an unset variable', '${MISSING:-fallback}', 'fallback', true],
    ['a default for an empty variable', '${EMPTY:-fallback}', 'fallback', true],
    ['no default needed when set', '${HOST:-fallback}', 'example.org', true],
    ['an empty default', '[${MISSING:-}]', '[]', true],
    ['a default with a colon in it', '${MISSING:-a:b}', 'a:b', true],
    ['an empty variable without default', '[${EMPTY}]', '[]', true],
    ['a value is not expanded again', '${TRICK}', '${HOST}', true],
    ['a value with $ is kept as is', '${PRICE}', '$5', true],
  ])('%s', (_name, text, value, substituted) => {
    expect(expandEnv(text, env)).toEqual({ value, substituted, errors: [] });
  });

  it.each([
    ['an unset variable', 'a ${MISSING} b', ['environment variable MISSING is not set (write ${MISSING:-default} to give a default)']],
    ['an unterminated reference', 'a ${HOST', ['unterminated "${" (write $$ for a literal $)']],
    ['an invalid name', '${1X}', ['invalid variable reference "${1X}" (names are letters, digits and _)']],
    ['an empty name', '${}', ['invalid variable reference "${}" (names are letters, digits and _)']],
    [
      'every problem in one text',
      '${A}${B}',
      [
        'environment variable A is not set (write ${A:-default} to give a default)',
        'environment variable B is not set (write ${B:-default} to give a default)',
      ],
    ],
  ])('reports %s', (_name, text, errors) => {
    expect(expandEnv(text, env).errors).toEqual(errors);
  });
});
