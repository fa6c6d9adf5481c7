// Button looks, as a class string: usable on <button>, <Link> and <a>, from server and client components.

const BUTTON = {
  primary: 'bg-indigo-600 text-white hover:bg-indigo-500 border-transparent',
  secondary: 'bg-surface text-slate-800 hover:bg-slate-50 border-slate-300',
  danger: 'bg-surface text-rose-700 hover:bg-rose-50 border-rose-300',
  ghost: 'bg-transparent text-slate-700 hover:bg-slate-100 border-transparent',
} as const;
export type TButtonVariant = keyof typeof BUTTON;

export function buttonClass(variant: TButtonVariant = 'secondary', size: 'sm' | 'md' = 'md') {
  return `inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md border font-medium shadow-xs transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${
    size === 'sm' ? 'px-2 py-1 text-xs' : 'px-3 py-1.5 text-sm'
  } ${BUTTON[variant]}`;
}
