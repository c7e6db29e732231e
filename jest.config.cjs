// Jest runs the package as users get it: the built dist/ (CommonJS entry), on the real wasm.
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/tests/js/**/*.test.cjs"],
  moduleFileExtensions: ["cjs", "js", "mjs", "json"],
  transform: {},
  testTimeout: 30000,
  globalSetup: "<rootDir>/tests/js/dist-check.cjs",
};
