/** Two projects: `unit` (npm test: unit and in-process integration tests, nothing beyond
 * npm ci) and `e2e` (npm run test:e2e: real Prometheus, Alertmanager, Chromium, child processes).
 * ts-jest only transpiles (isolatedModules): `tsc --noEmit` checks the types, once, in pretest. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: { module: 'commonjs', target: 'es2022', esModuleInterop: true, sourceMap: true, isolatedModules: true } }],
};
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/**/*.test.ts'], testPathIgnorePatterns: ['<rootDir>/test/e2e/'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
};
