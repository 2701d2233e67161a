// The linker's worker client (docs/assets/javascripts/linker-client.js), as the widget (linker.js) and the browser
// tests see it: window.codex.linker. Its requests and answers are codex.protocol's, generated as protocol.d.ts.
import type { Answers, Requests } from "./protocol";

export {};
declare global {
  /** A game as the worker lists it when ready (codex.api: GameInfo). */
  type LinkerGame = { id: string; name: CodexLabel };
  /** The worker's answer to one request (codex.api.Codex.handle): the result, and the game that answered. */
  type LinkerAnswer = Answers[keyof Answers];
  type LinkerPending = {
    /** with the answer to its request's op */
    resolve: (answer: any) => void;
    reject: (error: Error) => void;
    timer: ReturnType<typeof setTimeout> | null;
  };
  /** codex.protocol's requests and answers by op, for the client's JSDoc (a classic script cannot import). */
  type LinkerRequests = Requests;
  type LinkerAnswers = Answers;
  /** Whoever shows the worker's state (a widget): told of every change while alive() holds. */
  type LinkerWatcher = { alive: () => boolean; onState: () => void };
  type LinkerState = {
    worker: Worker | null;
    phase: "idle" | "loading" | "ready" | "failed";
    message: string;
    games: LinkerGame[] | null;
    nextId: number;
    pending: Map<number, LinkerPending>;
    watchers: Set<LinkerWatcher>;
    manifest: Promise<{ games: LinkerGame[] }> | null;
    /** where the worker's start-up time went (benchmarks/linker.py, startup.py read them) */
    marks?: Record<string, number | string> | null;
    /** the bytes of the memory snapshot saved for the next start (0: none) */
    snapshot?: number;
    error?: string;
  };
  interface LinkerClient {
    urls: { worker: string; manifest: string };
    state: LinkerState;
    start(): void;
    ask<Op extends keyof Requests>(op: Op, payload: Omit<Requests[Op], "op">): Promise<Answers[Op]>;
    request<Op extends keyof Requests>(op: Op, payload: Omit<Requests[Op], "op">): Promise<Answers[Op]["result"]>;
    manifest(): Promise<{ games: LinkerGame[] }>;
    watch(watcher: LinkerWatcher): void;
    /** how long a request may wait for its answer before the worker is restarted */
    timeoutMs: number;
    restarts: number;
    /** set by linker.js's first copy */
    widget?: boolean;
  }
}
