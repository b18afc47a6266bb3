// The tools the model can have, and the catalogue published by `wisp tools` and `wisp://tools`.
import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { askOperatorTool } from './ask-operator.js';
import { editFileTool } from './edit-file.js';
import { readFileTool } from './read-file.js';
import { runCommandTool } from './run-command.js';
import type { WispTool } from './types.js';

export const ALL_TOOLS: readonly WispTool[] = [runCommandTool, readFileTool, editFileTool, askOperatorTool] as unknown as WispTool[];
export const TOOL_NAMES: readonly string[] = ALL_TOOLS.map((t) => t.name);

/** Picks tools from `--tool NAME…` / `--no-tools` and `tools.disabled`; an unknown name is a usage error. */
export function selectTools(opts: { names?: readonly string[]; none?: boolean; disabled?: readonly string[] }): WispTool[] {
  if (opts.none) return [];
  for (const name of [...(opts.names ?? []), ...(opts.disabled ?? [])]) {
    if (!TOOL_NAMES.includes(name)) throw new UsageError(`unknown tool '${name}'; the tools are ${TOOL_NAMES.join(', ')}`);
  }
  const wanted = opts.names && opts.names.length > 0 ? new Set(opts.names) : new Set(TOOL_NAMES);
  const disabled = new Set(opts.disabled ?? []);
  return ALL_TOOLS.filter((t) => wanted.has(t.name) && !disabled.has(t.name));
}

/** JSON Schemas already converted, per zod schema: the conversation sends them with every model call. */
const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

/** The tool's arguments as JSON Schema (a fresh copy each call; the conversion itself runs once per schema). */
export function toolSchema(tool: WispTool): Record<string, unknown> {
  let schema = jsonSchemas.get(tool.schema);
  if (schema === undefined) {
    schema = z.toJSONSchema(tool.schema) as Record<string, unknown>;
    delete schema.$schema;
    jsonSchemas.set(tool.schema, schema);
  }
  return structuredClone(schema);
}

export interface CatalogueEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  limits: readonly string[];
  example: string;
}

export function catalogue(tools: readonly WispTool[] = ALL_TOOLS): { tools: CatalogueEntry[] } {
  return {
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toolSchema(t),
      limits: t.limits,
      example: t.example,
    })),
  };
}

export function catalogueMarkdown(tools: readonly WispTool[] = ALL_TOOLS): string {
  const out: string[] = ['# wisp tools', '', 'The tools a model gets inside wisp. Every call is validated; commands, edits and reads pass the gate.', ''];
  for (const t of catalogue(tools).tools) {
    out.push(`## ${t.name}`, '', t.description, '', '**Limits:**', ...t.limits.map((l) => `- ${l}`), '', `**Example prompt:** ${t.example}`, '');
    out.push('**Arguments:**', '');
    const props = (t.inputSchema.properties ?? {}) as Record<string, { type?: string; description?: string; enum?: unknown[] }>;
    const required = new Set((t.inputSchema.required ?? []) as string[]);
    for (const [name, p] of Object.entries(props)) {
      const type = p.enum ? p.enum.map(String).join(' | ') : (p.type ?? 'any');
      out.push(`- \`${name}\` (${type}${required.has(name) ? '' : ', optional'}): ${p.description ?? ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}
