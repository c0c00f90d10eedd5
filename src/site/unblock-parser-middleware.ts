/**
 * Astro middleware: each HTML page leaves with its body's classic inline scripts turned into module scripts, so the
 * parser never stops for the stylesheets and the first paint shows the whole page (why: src/site/unblock-parser.mjs).
 * Runs for every page at build time and in `astro dev`, registered in astro.config.mjs.
 */
import { defineMiddleware } from 'astro:middleware';
import { unblockParser } from './unblock-parser.mjs';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(unblockParser(await response.text()), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
});
