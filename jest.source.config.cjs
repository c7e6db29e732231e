// The source lane: checks that read the sources (engine/, js/src/, docs, CONTRIBUTING,
// package.json) and need no build. `npm run test:source` (scripts/test-source.mjs) runs
// them in a copy of the working tree without dist/ and build/; `npm test` runs them
// that way once, and the package's Jest (jest.config.cjs) does not run them again.
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/tests/source/**/*.test.cjs"],
  moduleFileExtensions: ["cjs", "js", "mjs", "json"],
  transform: {},
  testTimeout: 30000,
};
