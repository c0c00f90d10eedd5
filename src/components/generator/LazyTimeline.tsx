/** The drain timeline beside the generator, loaded when its slot nears the viewport, not with the page. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentProps, FunctionComponent } from 'preact';
import type { Timeline as TimelineComponent } from '../timeline/Timeline.tsx';

type Props = ComponentProps<typeof TimelineComponent>;

/** Renders the timeline once its code has loaded; until then an empty slot of about its height. */
export function LazyTimeline(props: Props) {
  const [Loaded, setLoaded] = useState<FunctionComponent<Props> | null>(null);
  const slot = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const load = () => {
      import('../timeline/Timeline.tsx').then((m) => setLoaded(() => m.Timeline));
    };
    if (!('IntersectionObserver' in window) || !slot.current) {
      load();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          load();
        }
      },
      { rootMargin: '400px' },
    );
    observer.observe(slot.current);
    return () => observer.disconnect();
  }, []);
  return (
    // data-hydrate-on-view: the island hydrates when this slot nears the viewport (src/site/client-interaction.ts).
    <div ref={slot} class={Loaded ? 'gen-timeline' : 'gen-timeline is-loading'} data-hydrate-on-view>
      {Loaded ? <Loaded {...props} /> : null}
    </div>
  );
}
