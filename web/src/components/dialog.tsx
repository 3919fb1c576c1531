import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: the native <dialog> shown with showModal(), so the page behind is inert and
 * Escape cancels; Tab and Shift+Tab also wrap inside it (the focus stays in the dialog), and
 * closing gives the focus back to what opened it. The first element marked data-autofocus gets
 * the focus, else the first focusable one.
 */
export function Modal(props: { labelledBy: string; describedBy?: string; onCancel: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  // A layout effect: the dialog opens and takes the focus in the same task as its render, so keys
  // typed right after the one that opened it (Ctrl+K, then a name) land in it, not in the page.
  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
      // Chromium can settle the focus of a closing modal after this cleanup (an Escape it handles as
      // a close request): put it back on the opener then, unless the user has moved it somewhere.
      setTimeout(() => {
        if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus();
      });
    };
  }, []);
  const trapTab = (e: KeyboardEvent) => {
    if (e.key !== 'Tab') return;
    const items = [...ref.current!.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      class={props.wide ? 'modal modal-wide' : 'modal'}
      onKeyDown={trapTab}
      onCancel={(e) => {
        // Escape: the caller decides (it unmounts this), so the dialog never closes behind its back.
        e.preventDefault();
        props.onCancel();
      }}
    >
      {props.children}
    </dialog>
  );
}
