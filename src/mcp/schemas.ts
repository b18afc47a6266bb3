// The contract of wisp's MCP tools, as zod schemas: the arguments `respond` and `close_thread` take, the structured
// result `respond` returns, and the tool list whose JSON Schemas (inputs and output alike) are derived from them.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { THREAD_ID } from './threads.js';

const Answer = z.strictObject({
  id: z.string().min(1).max(64).describe('The pending id from a previous result'),
  text: z.string().max(65536).describe("The person's answer (at most 4 KiB)"),
  answeredBy: z.enum(['human', 'agent']).optional().describe('Who wrote the answer; recorded as given'),
});

export const RespondArgs = z.strictObject({
  prompt: z.string().min(1).max(200_000).describe('What to ask or tell the agent'),
  thread_id: z
    .string()
    .regex(THREAD_ID)
    .optional()
    .describe('Continue this thread ([A-Za-z0-9._-], at most 64); omit for a new one, an unknown id starts a thread with that id'),
  instructions: z.string().max(20_000).optional().describe('Extra instructions for a new thread (only when it is created)'),
  tools: z
    .array(z.string())
    .max(16)
    .optional()
    .describe('Tools for a new thread (only when it is created); [] for text only; default all the server offers'),
  answers: z
    .array(Answer)
    .max(32)
    .optional()
    .describe('Answers to pending inquiries of this thread, from a previous result; approvals are never answered here'),
});
export type RespondArgs = z.infer<typeof RespondArgs>;

export const CloseArgs = z.strictObject({
  thread_id: z.string().min(1).max(64).describe('The thread to close'),
});

// The result's objects are open (no additionalProperties): a client that validates against this schema keeps working
// when a later wisp adds a field.
const Refusal = z.object({ command: z.string(), reason: z.string(), escalationId: z.string().optional() });
const PendingEntry = z.object({
  id: z.string(),
  verb: z.enum(['approval', 'inquiry']),
  command: z.string().optional(),
  question: z.string().optional(),
  pattern: z.string().optional(),
  level: z.string().optional(),
  reasons: z.array(z.string()).optional(),
  expiresAt: z.string(),
  answer: z.string(),
});

export const RespondResult = z.object({
  thread_id: z.string(),
  created: z.boolean(),
  text: z.string(),
  refusals: z.array(Refusal),
  pending: z.array(PendingEntry),
  receipt: z.object({
    commands: z.array(z.unknown()),
    files: z.array(z.unknown()),
    approvals: z.array(z.unknown()),
    inquiries: z.array(z.unknown()),
    /** Tool calls that failed without a refusal (a find text not found, a missing file), ADR 0097. */
    errors: z.array(z.object({ tool: z.string(), error: z.string() })),
  }),
});
/** `respond`'s structuredContent. */
export type RespondStructured = z.infer<typeof RespondResult>;

/** A zod schema as the JSON Schema of a tool (its input, or — read as what is accepted — its output). */
function jsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  // `input`: optional fields stay optional and plain objects stay open, in the output schema too.
  const out = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete out.$schema;
  return out as Tool['inputSchema'];
}

export const RESPOND_DESCRIPTION =
  "Run wisp's agent on a prompt: a local model with tools (commands, file reads and edits, questions to the " +
  "operator), every action through wisp's gate. Pass thread_id to continue a conversation. Refused commands are " +
  'listed in refusals. When the result lists a pending inquiry, ask your person the question and call respond again ' +
  'on the same thread with answers: [{id, text}]. A pending approval is answered only by a person in a terminal ' +
  '(`wisp approvals approve ID`), never through answers.';

export function toolList(): Tool[] {
  return [
    {
      name: 'respond',
      title: 'Ask wisp',
      description: RESPOND_DESCRIPTION,
      inputSchema: jsonSchema(RespondArgs),
      outputSchema: jsonSchema(RespondResult),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      // A client may run it as a task (poll, fetch the result later): no request timeout cuts a person's answer short.
      execution: { taskSupport: 'optional' },
    },
    {
      name: 'close_thread',
      title: 'Close a wisp thread',
      description: 'Drop a thread: its conversation is forgotten and its pending ids can no longer be answered.',
      inputSchema: jsonSchema(CloseArgs),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
  ];
}
