// Types of serve.mjs, for js/src/cli-playground.ts (which bundles it).
import type { Server } from "node:http";

export const DEFAULT_ROOT: string;
export const MIME_TYPES: Record<string, string>;
export function serve(options?: {
  root?: string;
  port?: number;
  host?: string;
  log?: boolean;
  requireIndex?: boolean;
  headers?: Record<string, string> | ((file: string) => Record<string, string>);
  mounts?: Record<string, { dir: string; files: string[] }>;
}): Promise<{ url: string; port: number; server: Server; close(): Promise<void> }>;
