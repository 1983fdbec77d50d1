/** Two projects: `unit` (npm test: unit and in-process integration tests, nothing beyond
 * npm ci) and `e2e` (npm run test:e2e: real Prometheus, Alertmanager, Chromium, child processes). */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/**/*.test.ts'], testPathIgnorePatterns: ['<rootDir>/test/e2e/'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
};
