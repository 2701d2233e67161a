// What the theme and the build give the page scripts, declared once.
export {};
declare global {
  /** A label of hooks/codex/labels.py: its text in each language. */
  type CodexLabel = { en: string; ru: string };
  /** Where i18n.js puts Material's chrome in the reader's language: [selector, "text" | "names" | attribute, key]. */
  type CodexChromeRule = [string, string, string];
  /** The part of an RxJS observable the scripts use: Material emits each (instantly navigated) page. */
  interface CodexObservable<T> { subscribe(next: (value: T) => void): unknown }
  interface Window {
    /** assets/codex/labels.js, generated from hooks/codex/labels.py. */
    codexLabels?: Record<string, CodexLabel>;
    /** assets/codex/labels.js, generated from codex/chrome.py. */
    codexChrome?: CodexChromeRule[];
    /** Material for MkDocs: the document after the first load and each instant navigation. */
    document$?: CodexObservable<Document>;
    /** Material for MkDocs: the site's root URL. */
    __md_scope?: URL;
    /** overrides/main.html, on the linker page: the worker started first thing in the head and what it sent
     *  before linker-client.js took it (null once taken). */
    codexLinkerEarly?: { worker: Worker; events: Array<MessageEvent | ErrorEvent> } | null;
    /** docs/assets/javascripts/codex-common.js: what the page scripts share. */
    codex: CodexCommon;
  }
  interface CodexCommon {
    lang(): string;
    label(key: string, params?: Record<string, string | number | ((lang: string) => string)>, which?: string): string;
    inLanguage<T>(names: { en?: T; ru?: T } | null | undefined, fallback: T): T;
    copy(text: string, field?: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean>;
    siteFile(path: string): string;
    onPage(fn: () => void): void;
    el(tag: string, attrs?: Record<string, string> | null, children?: Array<Node | string | null | undefined>): HTMLElement;
    clear(node: Node): void;
    firstMount(node: HTMLElement): boolean;
    /** linker-client.js's worker client, set by its first copy (linker.js and the browser tests use it). */
    linker?: LinkerClient;
    /** offline.js's state, set by its first copy. */
    offline?: unknown;
  }
}
