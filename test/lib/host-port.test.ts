import { parseHostPort } from '../../src/lib/host-port';

describe('parseHostPort', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['localhost:8080', { host: 'localhost', port: 8080 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
    [':9464', { host: '', port: 9464 }],
    ['0.0.0.0:0', { host: '0.0.0.0', port: 0 }],
  ])('%s', (text, expected) => {
    expect(parseHostPort(text)).toEqual(expected);
  });

  it.each(['9464', 'localhost', 'host:', 'host:65536', 'host:port', '::1:9464', 'a b:1', 'http://x:1'])('%j is not HOST:PORT', (text) => {
    expect(parseHostPort(text)).toBeUndefined();
  });
});
