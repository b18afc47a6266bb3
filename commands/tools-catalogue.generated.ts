// GENERATED from src/tools/registry.ts by test/operator/tools-catalogue.test.ts — do not edit by hand.
// Regenerate: WISP_UPDATE_CATALOGUE=1 npx vitest run test/operator/tools-catalogue.test.ts
import type { CatalogueEntry } from '../src/tools/registry.js';

export const CATALOGUE: { tools: CatalogueEntry[] } = {
  "tools": [
    {
      "name": "run_command",
      "description": "Run a shell command in a sandbox and get its exit status and the tail of its output. Every command passes a gate: read-only commands run at once; others may need the operator's approval or be refused — if refused, do not retry the same command; explain or choose another way.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "command": {
            "type": "string",
            "minLength": 1,
            "maxLength": 16384,
            "description": "A shell command line (run with bash -c), e.g. \"ls -la src\""
          },
          "workingDirectory": {
            "description": "Directory to run in (default: where wisp was started); relative paths resolve from there",
            "type": "string",
            "maxLength": 4096
          }
        },
        "required": [
          "command"
        ],
        "additionalProperties": false
      },
      "limits": [
        "timeout 60 s (commands.timeoutSeconds)",
        "last 4 KiB of stdout and of stderr (commands.maxOutputBytes)",
        "writes only inside the launch directory and the temp dir"
      ],
      "example": "How big is each folder in this project? Use run_command with du."
    },
    {
      "name": "read_file",
      "description": "Read a text file as numbered lines, one page at a time. A page ends with \"[more: call again with offset N]\" or \"[end of file]\". Reading credentials or secrets needs the operator's approval.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "path": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "description": "File to read; relative paths resolve from where wisp was started"
          },
          "offset": {
            "description": "First line to return, 1-based (default 1)",
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740991
          },
          "limit": {
            "description": "Most lines to return (default 200)",
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          }
        },
        "required": [
          "path"
        ],
        "additionalProperties": false
      },
      "limits": [
        "pages of at most 4 KiB",
        "text files only (a NUL byte refuses the file)",
        "looks at the first 256 MiB of a file only"
      ],
      "example": "What does README.md say about installation? Use read_file."
    },
    {
      "name": "edit_file",
      "description": "Create or change a text file inside the project (the directory wisp was started in) or the temp dir. Every edit passes the gate and may need the operator's approval. Prefer replace with a unique find for small changes.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "path": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "description": "File to write; relative paths resolve from where wisp was started"
          },
          "mode": {
            "type": "string",
            "enum": [
              "write",
              "append",
              "replace"
            ],
            "description": "write: replace the whole file; append: add to the end; replace: swap the one occurrence of find"
          },
          "content": {
            "type": "string",
            "maxLength": 1048576,
            "description": "The new text (for replace: what find becomes)"
          },
          "find": {
            "description": "With mode replace: text that occurs exactly once in the file",
            "type": "string",
            "minLength": 1,
            "maxLength": 1048576
          }
        },
        "required": [
          "path",
          "mode",
          "content"
        ],
        "additionalProperties": false
      },
      "limits": [
        "inside the launch directory, the temp dir and sandbox.writablePaths only",
        "files up to 1 MiB",
        "replace: find must occur exactly once"
      ],
      "example": "Add a \"## Licence\" section to the end of README.md. Use edit_file with mode append."
    },
    {
      "name": "ask_operator",
      "description": "Ask the operator (the person running wisp) one question. Ask only when you cannot proceed without them, and ask one thing. The answer may be refused, may not come in time, or may arrive on the next turn.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "question": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "description": "One clear question for the operator"
          },
          "schema": {
            "description": "Optional JSON Schema (type object) for a structured answer; flat objects of strings/numbers/booleans work best",
            "type": "object",
            "propertyNames": {
              "type": "string"
            },
            "additionalProperties": {}
          }
        },
        "required": [
          "question"
        ],
        "additionalProperties": false
      },
      "limits": [
        "answer capped at 4 KiB",
        "bounded wait (escalation.timeoutSeconds)",
        "declined under --yes: there is no operator"
      ],
      "example": "Tidy up the config files, but ask me before deciding which of the two READMEs to keep."
    }
  ]
};

export const CATALOGUE_MARKDOWN: string = "# wisp tools\n\nThe tools a model gets inside wisp. Every call is validated; commands, edits and reads pass the gate.\n\n## run_command\n\nRun a shell command in a sandbox and get its exit status and the tail of its output. Every command passes a gate: read-only commands run at once; others may need the operator's approval or be refused — if refused, do not retry the same command; explain or choose another way.\n\n**Limits:**\n- timeout 60 s (commands.timeoutSeconds)\n- last 4 KiB of stdout and of stderr (commands.maxOutputBytes)\n- writes only inside the launch directory and the temp dir\n\n**Example prompt:** How big is each folder in this project? Use run_command with du.\n\n**Arguments:**\n\n- `command` (string): A shell command line (run with bash -c), e.g. \"ls -la src\"\n- `workingDirectory` (string, optional): Directory to run in (default: where wisp was started); relative paths resolve from there\n\n## read_file\n\nRead a text file as numbered lines, one page at a time. A page ends with \"[more: call again with offset N]\" or \"[end of file]\". Reading credentials or secrets needs the operator's approval.\n\n**Limits:**\n- pages of at most 4 KiB\n- text files only (a NUL byte refuses the file)\n- looks at the first 256 MiB of a file only\n\n**Example prompt:** What does README.md say about installation? Use read_file.\n\n**Arguments:**\n\n- `path` (string): File to read; relative paths resolve from where wisp was started\n- `offset` (integer, optional): First line to return, 1-based (default 1)\n- `limit` (integer, optional): Most lines to return (default 200)\n\n## edit_file\n\nCreate or change a text file inside the project (the directory wisp was started in) or the temp dir. Every edit passes the gate and may need the operator's approval. Prefer replace with a unique find for small changes.\n\n**Limits:**\n- inside the launch directory, the temp dir and sandbox.writablePaths only\n- files up to 1 MiB\n- replace: find must occur exactly once\n\n**Example prompt:** Add a \"## Licence\" section to the end of README.md. Use edit_file with mode append.\n\n**Arguments:**\n\n- `path` (string): File to write; relative paths resolve from where wisp was started\n- `mode` (write | append | replace): write: replace the whole file; append: add to the end; replace: swap the one occurrence of find\n- `content` (string): The new text (for replace: what find becomes)\n- `find` (string, optional): With mode replace: text that occurs exactly once in the file\n\n## ask_operator\n\nAsk the operator (the person running wisp) one question. Ask only when you cannot proceed without them, and ask one thing. The answer may be refused, may not come in time, or may arrive on the next turn.\n\n**Limits:**\n- answer capped at 4 KiB\n- bounded wait (escalation.timeoutSeconds)\n- declined under --yes: there is no operator\n\n**Example prompt:** Tidy up the config files, but ask me before deciding which of the two READMEs to keep.\n\n**Arguments:**\n\n- `question` (string): One clear question for the operator\n- `schema` (object, optional): Optional JSON Schema (type object) for a structured answer; flat objects of strings/numbers/booleans work best\n";
