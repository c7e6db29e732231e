// ESLint for the TypeScript and JavaScript: `npm run lint` (also a step of `npm test`).
// Formatting is Prettier's job (npm run format:check); these are the rules that find bugs.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores(["build/", "dist/", "node_modules/", "test-artifacts/"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a callback's shape, a destructured rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // A `let` that a closure reads before its one assignment (a timer cleared early) cannot be const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Expected output is matched literally, indentation included: /^\{\n  "function"/.
      "no-regex-spaces": "off",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": "allow-with-description" }],
    },
  },
  {
    // The package runs in Node, browsers and workers; the playground in browsers.
    files: ["js/src/**/*.ts", "playground/src/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Scripts, benchmarks, examples and the browser tests are Node ES modules.
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    // The browser tests (and the package test's pages) hand functions to page.evaluate, which run in the page.
    files: ["tests/browser/**/*.mjs", "tests/package/web.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The package test's browser consumer app runs in pages.
    files: ["tests/package/fixtures/web/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // The Jest suites and the Jest config are CommonJS.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node, ...globals.jest } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
]);
