// The classes of a header part the menu folds away below Tailwind's `lg` (components/console/site-header.tsx):
// hidden unless the header is open (data-menu="open"), always shown from lg on, a flex container when shown.
// Apart from site-header.tsx because that is a client module: a constant exported there is a client reference on the server.
export const MENU_PART = 'menu-part hidden group-data-[menu=open]/header:flex lg:flex';
