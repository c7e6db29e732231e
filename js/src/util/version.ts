// The package version (package.json's; a test keeps the two equal): the CLI
// prints it, and a suspended run's state records it, since another version may
// evaluate differently.
export const VERSION = "0.1.0";
