/**
 * Keyboard-only use of the generator (and of the checker, once /checker/ exists): Tab reaches every input in
 * the form's order (opening folded groups with Enter), each with a label, its help text and a visible focus
 * ring; values change with the keyboard alone (typing, arrow keys on a select, Space on a checkbox); the plan line
 * is an aria-live region and follows each change; errors are announced on the field; Copy works from the keyboard.
 */
import { expect, test, type Page } from '@playwright/test';
import { FIELDS, GROUPS } from '../../src/model/fields.ts';
import { DEFAULT_GATEWAY, gatewayById } from '../../src/model/resolve.ts';
import { generate, profiles } from '../support/generate.ts';
import { hasPage, hydrated, settle } from '../support/site.ts';

/** The health-check inputs: they apply only to a gateway whose profile has health-check data. */
const HEALTH_CHECK_FLAGS = [
  'health-check-interval-seconds',
  'health-check-unhealthy-threshold',
  'health-check-timeout-seconds',
  'propagation-seconds',
];
/** Left out of the form while the default gateway has no health-check data (GKE has none). */
const LEFT_OUT = [
  ...(gatewayById(profiles, DEFAULT_GATEWAY).healthCheck ? [] : HEALTH_CHECK_FLAGS),
  // The default output form is the bundle: the patch form's container and the lws form's nodes are left out.
  'container',
  'nodes-per-replica',
];

/** The inputs in the order the form shows them: by group, then by the field table's order; left-out ones skipped. */
const FORM_ORDER = GROUPS.flatMap((g) => FIELDS.filter((f) => f.group === g.id)).filter(
  (f) => !LEFT_OUT.includes(f.flag),
);

interface Focused {
  id: string;
  tag: string;
  closedSummaryOf: string | null;
  label: string;
  describedBy: string[];
  ring: boolean;
}

/** What has the keyboard focus: its id, tag, label, descriptions and whether a focus ring shows. */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { id: '', tag: 'body', closedSummaryOf: null, label: '', describedBy: [], ring: false };
    const details = el.tagName === 'SUMMARY' ? (el.parentElement as HTMLDetailsElement) : null;
    const style = getComputedStyle(el);
    const ring =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
      || (style.boxShadow !== 'none' && style.boxShadow !== '');
    const labels = (el as HTMLInputElement).labels
      ? [...(el as HTMLInputElement).labels!].map((l) => l.textContent ?? '')
      : [];
    const describedBy = (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`);
    return {
      id: el.id,
      tag: el.tagName.toLowerCase(),
      closedSummaryOf:
        details && !details.open ? (details.querySelector('input, select, textarea')?.id ?? 'details') : null,
      label: labels.join(' ') || el.getAttribute('aria-label') || '',
      describedBy,
      ring,
    };
  });
}

/** Press Tab until `predicate` holds for the focused element, opening folded groups (Enter on their summary). */
async function tabUntil(page: Page, predicate: (f: Focused) => boolean, what: string, limit = 250): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.closedSummaryOf) await page.keyboard.press('Enter');
    if (predicate(f)) return f;
  }
  throw new Error(`Tab never reached ${what} in ${limit} presses`);
}

const planLine = (page: Page) => page.locator('[data-testid=plan] [aria-live]').first();

/** The plan line's text for some inputs, as the core computes it (the numbers the page must show). */
function expectedLine(raw: Record<string, string>): RegExp {
  const { plan } = generate(raw);
  return new RegExp(
    `Grace period ${plan.terminationGracePeriodSeconds}s = ${plan.preStopSeconds}s preStop\\s+\\+ ${plan.drainSeconds}s drain`,
  );
}

test.describe('generator, keyboard only', () => {
  test.beforeEach(async ({ page }) => {
    expect(hasPage('/generator/'), 'the build has a /generator/ page').toBe(true);
    await page.goto('/generator/');
    await settle(page);
    await hydrated(page, '.gen');
  });

  test('Tab reaches every input in form order, each labelled, described and with a visible focus ring', async ({
    page,
  }) => {
    const reached: string[] = [];
    const problems: string[] = [];
    for (const spec of FORM_ORDER) {
      const f = await tabUntil(
        page,
        (x) => x.id.startsWith('in-') && !reached.includes(x.id),
        `an input after ${reached.at(-1) ?? 'the top'}`,
      );
      reached.push(f.id);
      if (f.id !== `in-${spec.flag}`) continue; // the order check below reports it
      if (!f.label.includes(spec.label)) problems.push(`${f.id}: label "${f.label.trim()}" lacks "${spec.label}"`);
      if (!f.describedBy.some((d) => d.includes(spec.help.slice(0, 30))))
        problems.push(`${f.id}: help text is not its description (${JSON.stringify(f.describedBy)})`);
      if (!f.ring) problems.push(`${f.id}: no visible focus indicator`);
    }
    expect(reached).toEqual(FORM_ORDER.map((s) => `in-${s.flag}`));
    expect(problems).toEqual([]);
  });

  test('the health-check inputs are left out for a gateway without health-check data, and shown for your own', async ({
    page,
  }) => {
    expect(LEFT_OUT.slice(0, 4), 'the default gateway (GKE) has no health-check data').toEqual(HEALTH_CHECK_FLAGS);
    for (const flag of HEALTH_CHECK_FLAGS) await expect(page.locator(`#in-${flag}`)).toHaveCount(0);
    // A note in their place names them and says when they apply.
    await expect(page.getByTestId('hidden-note-gateway')).toHaveText(
      'Health-check interval, Unhealthy threshold, Health-check timeout and Propagation: only for \u201cYour own gateway\u201d; other gateways use their removal p99.',
    );
    await page.locator('#in-gateway').selectOption('custom');
    for (const flag of HEALTH_CHECK_FLAGS) await expect(page.locator(`#in-${flag}`)).toBeEnabled();
    await expect(page.getByTestId('hidden-note-gateway')).toHaveCount(0);
    await expect(page.locator('#in-health-check-interval-seconds-help')).toContainText('seconds between checks');
    await tabUntil(page, (f) => f.id === 'in-health-check-interval-seconds', '#in-health-check-interval-seconds');
  });

  test('the output form\u2019s own inputs appear when it is chosen, right after the select in the Tab order', async ({
    page,
  }) => {
    await expect(page.getByTestId('hidden-note-output')).toHaveText(
      'Container (patch): with the patch output form. Nodes per replica (lws): with the lws output form.',
    );
    await expect(page.locator('#in-container')).toHaveCount(0);
    await tabUntil(page, (f) => f.id === 'in-output', '#in-output');
    await page.keyboard.press('ArrowDown'); // bundle → patch
    await expect(page.locator('#in-output')).toHaveValue('patch');
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('in-container');
    await expect(page.locator('#in-nodes-per-replica')).toHaveCount(0);
    await expect(page.getByTestId('hidden-note-output')).toHaveText(
      'Nodes per replica (lws): with the lws output form.',
    );
  });

  test('the preset question takes the focus, names the fields, and Escape keeps the reader\u2019s values', async ({
    page,
  }) => {
    const removal = page.locator('#in-removal-seconds');
    await tabUntil(page, (f) => f.id === 'in-removal-seconds', '#in-removal-seconds');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('12');
    await page.locator('#in-gateway').focus();
    await page.keyboard.press('ArrowDown');
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    await expect(
      dialog.getByRole('button', { name: /Use the preset/ }),
      'an alertdialog moves the focus to its first button',
    ).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(removal, 'Escape keeps my values').toHaveValue('12');
    await expect(page.locator('#in-gateway'), 'the focus returns to the select').toBeFocused();
    // 12 s removal + 5 s margin = 17 s preStop, whichever gateway the arrow key picked.
    await expect(planLine(page)).toContainText('= 17s preStop');
  });

  test('values change by keyboard alone, and the aria-live plan line follows', async ({ page }) => {
    await expect(planLine(page)).toHaveAttribute('aria-live', /polite|assertive/);
    await expect(planLine(page)).toHaveText(expectedLine({}));

    // A select: arrow keys choose the next gateway.
    const ids = profiles.gateways.map((g) => g.id);
    const start = ids.indexOf(await page.locator('#in-gateway').inputValue());
    const down = start + 1 < ids.length;
    await tabUntil(page, (f) => f.id === 'in-gateway', '#in-gateway');
    await page.keyboard.press(down ? 'ArrowDown' : 'ArrowUp');
    const gateway = ids[down ? start + 1 : start - 1];
    await expect(page.locator('#in-gateway'), 'the arrow key picked the neighbouring gateway').toHaveValue(gateway);
    await expect(planLine(page)).toHaveText(expectedLine({ gateway }));

    // A number: select the text and type over it.
    await tabUntil(page, (f) => f.id === 'in-max-output-tokens', '#in-max-output-tokens');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('8192');
    await expect(planLine(page)).toHaveText(expectedLine({ gateway, 'max-output-tokens': '8192' }));
    const { plan } = generate({ gateway, 'max-output-tokens': '8192' });
    await expect(page.locator('[data-testid=manifest]')).toContainText(
      `terminationGracePeriodSeconds: ${plan.terminationGracePeriodSeconds}`,
    );

    // A checkbox: Space toggles it.
    await tabUntil(page, (f) => f.id === 'in-unbounded-drain', '#in-unbounded-drain');
    await page.keyboard.press('Space');
    await expect(page.locator('#in-unbounded-drain')).toBeChecked();
    await expect(planLine(page)).toHaveText(
      expectedLine({ gateway, 'max-output-tokens': '8192', 'unbounded-drain': 'true' }),
    );
  });

  test('a bad value is announced on its field, named and with its range', async ({ page }) => {
    await tabUntil(page, (f) => f.id === 'in-tpot-ms', '#in-tpot-ms');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('abc');
    const field = page.locator('#in-tpot-ms');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#in-tpot-ms-error')).toContainText('tpot-ms must be a number from 0.1 to 10,000');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain('in-tpot-ms-error');
  });

  test('the manifest and the Copy button are reachable, and Copy works from the keyboard', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin });
    const copy = page.locator('[data-testid=copy]');
    for (let i = 0; i < 250 && !(await copy.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page)).closedSummaryOf) await page.keyboard.press('Enter');
    }
    await expect(copy, 'Tab reaches Copy').toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('.gen-copy-status, [data-testid=copy] ~ [role=status]').first()).toContainText('Copied');
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toBe(await page.locator('[data-testid=manifest]').textContent());
    expect(clipboard).toBe(generate({}).manifest);
    // The manifest itself takes focus, so it can be scrolled with the arrow keys.
    await tabUntil(page, (f) => f.tag === 'pre', 'the manifest');
  });
});

test.describe('checker, keyboard only', () => {
  test('every control is reachable by Tab and labelled; pasting a manifest updates a live region', async ({ page }) => {
    expect(hasPage('/checker/'), 'the build has a /checker/ page').toBe(true);
    await page.goto('/checker/');
    await settle(page);
    // The checker's own controls: those inside its island(s), not the page's code-block copy buttons.
    const controls = page.locator('main astro-island').locator('textarea, input:not([type=hidden]), select, button');
    const count = await controls.count();
    expect(count, 'the checker has form controls').toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const c = controls.nth(i);
      if (!(await c.isVisible())) continue;
      await expect(
        c,
        `control ${i + 1} (${await c.evaluate((el) => el.outerHTML.slice(0, 120))}) has an accessible name`,
      ).toHaveAccessibleName(/\S/);
    }
    // Tab from the top reaches every visible, enabled control of the checker.
    const wanted = await controls.evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null && !(el as HTMLButtonElement).disabled)
        .map((el, i) => {
          el.setAttribute('data-kb-probe', String(i));
          return String(i);
        }),
    );
    const reached = new Set<string>();
    for (let i = 0; i < 400 && reached.size < wanted.length; i++) {
      await page.keyboard.press('Tab');
      const probe = await page.evaluate(() => document.activeElement?.getAttribute('data-kb-probe'));
      if (probe) reached.add(probe);
    }
    expect(
      wanted.filter((w) => !reached.has(w)).map(Number),
      "controls Tab never reached (index among the checker's controls)",
    ).toEqual([]);

    await page.reload();
    await settle(page);
    const input = page.locator('main astro-island textarea').first();
    await expect(input, 'the checker has a textarea to paste into').toHaveCount(1);
    for (let i = 0; i < 250 && !(await input.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(input, 'Tab reaches the manifest input').toBeFocused();
    const live = page.locator('main [aria-live], main [role=status], main [role=alert]').first();
    await expect(live, 'the checker has a live region for its findings').toHaveCount(1);
    const before = await live.textContent();
    await page.keyboard.insertText(generate({}).manifest);
    await expect
      .poll(async () => live.textContent(), { message: 'the live region changes after a manifest is entered' })
      .not.toBe(before);
  });
});
