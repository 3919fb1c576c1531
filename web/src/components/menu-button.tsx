// A menu button (WAI-ARIA Authoring Practices, "menu button"): a button that opens a list of
// actions. Enter, Space or ArrowDown open it on the first item, ArrowUp on the last; ArrowUp/Down,
// Home and End move between items; Enter or Space picks one; Escape closes it and gives the focus
// back to the button; Tab, a click elsewhere or scrolling closes it. The menu is position: fixed,
// placed under its button (above it when the window has no room below), so no scrolling box clips it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import './menu-button.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
}

let nextId = 0;

export function MenuButton(props: { label: string; items: MenuItem[]; disabled?: boolean; class?: string; describedBy?: string }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const [id] = useState(() => `menu-${++nextId}`);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useLayoutEffect(() => {
    if (!open || !menu.current || !button.current) return;
    const at = button.current.getBoundingClientRect();
    const box = menu.current.getBoundingClientRect();
    const gap = 4;
    const below = at.bottom + gap + box.height <= window.innerHeight;
    menu.current.style.top = `${Math.max(gap, below ? at.bottom + gap : at.top - gap - box.height)}px`;
    menu.current.style.left = `${Math.max(gap, Math.min(at.right - box.width, window.innerWidth - box.width - gap))}px`;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'first' ? list[0] : list.at(-1))?.focus({ preventScroll: true });
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    // A fixed menu would float away from its button: scrolling anything but the menu closes it.
    const scrolled = (e: Event) => {
      if (!menu.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('scroll', scrolled, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('scroll', scrolled, true);
    };
  }, [open]);

  const onMenuKey = (e: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => list[(i + list.length) % list.length]?.focus({ preventScroll: true });
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(list.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') return setOpen(false);
    else return;
    e.preventDefault();
    e.stopPropagation(); // Escape here must not also close a dialog around the menu
  };

  return (
    <span class={`menu-button ${props.class ?? ''}`}>
      <button
        ref={button}
        type="button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={open ? id : undefined}
        aria-describedby={props.describedBy}
        disabled={props.disabled}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        {props.label}
      </button>
      {open && (
        <ul ref={menu} id={id} role="menu" aria-labelledby={`${id}-button`} class="menu" onKeyDown={onMenuKey}>
          {props.items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
