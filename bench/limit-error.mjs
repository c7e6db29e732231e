/**
 * A sandbox refused the work because of its time or memory limit. The runner
 * prints "could not run" for that engine and size instead of a number; any
 * other failure is a bug and aborts the benchmark. (A file of its own so that
 * peers loaded on their own, like Monty in the cold-start child, need not load
 * the others.)
 */
export class LimitError extends Error {}
