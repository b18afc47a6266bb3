// The model `wisp models pull` fetches when nothing else is said: a small instruct model with tool calling in its chat
// template (ADR 0033). Its checksum is not written here because it could not be checked from this machine: pull
// verifies against models.download.sha256 when set, else against the SHA-256 the server announces for the file.
export const DEFAULT_DOWNLOAD = {
  name: 'qwen2.5-1.5b-instruct-q4_k_m',
  url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
  /** About 1.1 GB; shown before downloading. */
  approxBytes: 1_120_000_000,
} as const;
