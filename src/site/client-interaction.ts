/**
 * `client:interaction`: an island that hydrates when the reader first reaches for it, not on load. Until then
 * the server's markup is the whole island: a page that nobody touches runs none of its code.
 *
 * What starts hydration: the pointer over the island (a head start on the click that usually follows), a press or
 * touch, focus inside it (Tab), a key, an input; or a part of it marked `data-hydrate-on-view` nearing the viewport
 * (the generator's timeline, which the server cannot draw: scrolling to it is reaching for it, keyboard scrolling
 * too). `client:interaction="search"` also hydrates at once when the URL has a query string, for an island whose
 * first render depends on the URL (a link with the generator's settings).
 *
 * Nothing the reader does while the code loads is lost:
 * - a form field changed before hydration keeps its value and is replayed as `input` and `change` events once the
 *   component listens (Preact leaves an input's value alone while hydrating, but resets a textarea's, so the value
 *   is written back first);
 * - a click on a button or a summary is held (its default action prevented: a folded group's fields are rendered
 *   by the component, not by the native toggle) and clicked again after hydration;
 * - a form is not submitted (Enter in a field would reload the page with the fields in the URL).
 */
import type { ClientDirective } from 'astro';

/** Events that mean the reader is reaching for the island. */
const STARTERS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input', 'change'];

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** A field's value as the reader left it: checked state, selected options, or text. */
function valueOf(field: Field): string | boolean | boolean[] {
  if (field instanceof HTMLSelectElement) return [...field.options].map((o) => o.selected);
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) return field.checked;
  return field.value;
}

/** Whether the reader changed a field from what the server sent. */
function isChanged(field: Field): boolean {
  if (field instanceof HTMLSelectElement) return [...field.options].some((o) => o.selected !== o.defaultSelected);
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio'))
    return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

/** Put a saved value back into its field. */
function restore(field: Field, value: string | boolean | boolean[]): void {
  if (field instanceof HTMLSelectElement && Array.isArray(value)) {
    value.forEach((selected, i) => {
      const option = field.options[i];
      if (option) option.selected = selected;
    });
  } else if (field instanceof HTMLInputElement && typeof value === 'boolean') field.checked = value;
  else if (typeof value === 'string' && field.value !== value) field.value = value;
}

const interaction: ClientDirective = (load, options, el) => {
  const held: HTMLElement[] = [];
  let started = false;
  const capture = { capture: true, passive: true } as const;

  const holdClick = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest('button, summary') : null;
    if (!(target instanceof HTMLElement) || !el.contains(target)) return;
    event.preventDefault();
    if (!held.includes(target)) held.push(target);
    void start();
  };
  const holdSubmit = (event: Event) => event.preventDefault();

  const onView =
    'IntersectionObserver' in window
      ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void start(), {
          rootMargin: '400px',
        })
      : undefined;

  async function start(): Promise<void> {
    if (started) return;
    started = true;
    for (const type of STARTERS) el.removeEventListener(type, start, capture);
    onView?.disconnect();
    let hydrate: Awaited<ReturnType<typeof load>>;
    try {
      hydrate = await load();
    } catch {
      // The code did not load (offline, a deploy replaced it): the next interaction tries again.
      started = false;
      listen();
      return;
    }
    const changed = [...el.querySelectorAll<Field>('input, select, textarea')]
      .filter(isChanged)
      .map((field) => [field, valueOf(field)] as const);
    await hydrate();
    el.removeEventListener('click', holdClick, true);
    el.removeEventListener('submit', holdSubmit, true);
    for (const [field, value] of changed) {
      restore(field, value);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.dispatchEvent(new Event('change', { bubbles: true }));
    }
    for (const target of held) if (target.isConnected) target.click();
  }

  function listen(): void {
    for (const type of STARTERS) el.addEventListener(type, start, capture);
    for (const part of el.querySelectorAll('[data-hydrate-on-view]')) onView?.observe(part);
  }

  el.addEventListener('click', holdClick, true);
  el.addEventListener('submit', holdSubmit, true);
  listen();
  if (options.value === 'search' && window.location.search !== '') void start();
};

export default interaction;
