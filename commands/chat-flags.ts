// The flags of `wisp chat`, shared by its registration (chat.ts) and its lazily loaded body (chat-run.tsx,
// chat-resume.tsx) in a module of their own, so no two of them import each other.
export interface ChatFlags {
  model?: string;
  yes?: boolean;
  escalation?: string;
  tool?: string[];
  tools?: boolean;
  resume?: string | boolean;
  continue?: boolean;
}
