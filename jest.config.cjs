// Jest runs the package as users get it: the built dist/ (CommonJS entry), on the real wasm.
// The checks that need no build are tests/source/ (jest.source.config.cjs, npm run test:source).
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/tests/js/**/*.test.cjs"],
  moduleFileExtensions: ["cjs", "js", "mjs", "json"],
  transform: {},
  testTimeout: 30000,
  globalSetup: "<rootDir>/tests/js/dist-check.cjs",
};
