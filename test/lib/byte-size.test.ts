import { parseByteSize } from '../../src/lib/byte-size';

describe('parseByteSize', () => {
  it.each([
    ['0', 0],
    ['1024', 1024],
    ['10B', 10],
    ['512KiB', 524_288],
    ['32MiB', 33_554_432],
    ['32 MiB', 33_554_432],
    ['1GiB', 1_073_741_824],
    ['1kb', 1_000],
    ['2MB', 2_000_000],
    ['1GB', 1_000_000_000],
    ['1.5KiB', 1_536],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['', 'MiB', '32XB', '-1', '1.5B', '1e3', '32 MiB extra'])('%j is not a size', (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  });
});
