'use client';

import { usePathname } from 'next/navigation';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

// The console's sticky header, and the menu that folds its navigation and session controls away
// below Tailwind's `lg` (issue 41: at 390 px the header is one row, at most 80 px). The parts the
// menu hides carry MENU_PART (./menu-part.ts). The menu button is a disclosure (aria-expanded, aria-controls): Escape or a
// click outside closes it and gives the focus back to the button; following a link closes it.
// Without JavaScript the parts are simply shown (a <noscript> style), the button hidden.

const NO_SCRIPT_CSS = '<style>header .menu-part{display:flex}header [data-menu-button]{display:none}</style>';

type TMenu = { open: boolean; setOpen: (open: boolean) => void; button: React.RefObject<HTMLButtonElement | null> };
const MenuContext = createContext<TMenu | null>(null);

export function SiteHeader({ className = '', children }: { className?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const header = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  // A link followed (or the back button) closes the menu.
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (e.target instanceof Node && !header.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  return (
    <MenuContext.Provider value={{ open, setOpen, button }}>
      <header
        ref={header}
        data-surface="dark"
        data-menu={open ? 'open' : 'closed'}
        // Open on a short screen, the header scrolls inside itself rather than hide the page for good.
        className={`group/header sticky top-0 z-20 max-h-dvh overflow-y-auto bg-slate-900 text-white shadow-sm lg:overflow-visible ${className}`}
      >
        <noscript dangerouslySetInnerHTML={{ __html: NO_SCRIPT_CSS }} />
        {children}
      </header>
    </MenuContext.Provider>
  );
}

/** The menu button (below lg only): opens and closes the parts named by `controls`. */
export function MenuButton({ controls }: { controls: string }) {
  const menu = useContext(MenuContext);
  if (!menu) throw new Error('MenuButton outside SiteHeader');
  const { open, setOpen, button } = menu;
  return (
    <button
      ref={button}
      type="button"
      data-menu-button
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => setOpen(!open)}
      className="grid size-9 shrink-0 place-items-center rounded-md text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-300 lg:hidden"
    >
      <span className="sr-only">Menu</span>
      <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" className="size-5" aria-hidden>
        {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5.5h14M3 10h14M3 14.5h14" />}
      </svg>
    </button>
  );
}
