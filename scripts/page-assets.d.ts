import type { Plugin } from 'vite';

/** The plugin that builds the hosted pages' client into the server (see page-assets.js). */
export function pageAssets(): Plugin;
/** A client module bundled into one minified classic script, and the files it was made of. */
export function pageScript(file: string): Promise<{ code: string; files: string[] }>;
/** A stylesheet, checked and minified. */
export function pageStyle(file: string): Promise<string>;
