/**
 * Recorders for the Playwright specs, started before a page loads: the Content-Security-Policy violations it
 * reports, and the requests it makes to other origins.
 */
import type { Page } from '@playwright/test';

/**
 * Start recording CSP violations: the `securitypolicyviolation` events the page fires (recorded from before any
 * of its scripts run) and the console errors Chromium writes for blocked resources. Call the result to read them.
 */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) fromConsole.push(`console: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
      );
    });
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
    ...fromConsole,
  ];
}

/**
 * Start recording requests: every one (and every WebSocket) to an origin other than `origin`, as "<type> <url>",
 * and how many went to `origin` itself.
 */
export function recordRequests(page: Page, origin: string): { outside: string[]; sameOrigin: () => number } {
  const outside: string[] = [];
  let sameOrigin = 0;
  const check = (url: string, what: string) => {
    if (/^(data|blob|about):/.test(url)) return;
    if (new URL(url).origin === origin) sameOrigin++;
    else outside.push(`${what} ${url}`);
  };
  page.on('request', (request) => check(request.url(), request.resourceType()));
  page.on('websocket', (ws) => check(ws.url(), 'websocket'));
  return { outside, sameOrigin: () => sameOrigin };
}
