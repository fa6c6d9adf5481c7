'use client';

import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useFormStatus } from 'react-dom';
import { buttonClass, type TButtonVariant } from './button-class';

// Form controls with one look. Client-only because SubmitButton reads the pending form state.

const CONTROL =
  'block rounded-md border border-slate-300 bg-surface px-2.5 py-1.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/20 disabled:bg-slate-50 aria-[invalid=true]:border-rose-400';

export function Field({ label, htmlFor, error, hint, children }: { label: ReactNode; htmlFor: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={htmlFor} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error ? (
        <p className="text-xs text-rose-700" id={`${htmlFor}-error`}>
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-slate-500">{hint}</p>
      ) : null}
    </div>
  );
}

/** Full width unless the caller gives a width (two width classes would be decided by stylesheet order, not by intent). */
const control = (className: string) => `${CONTROL} ${/(^|\s)([a-z]+:)*w-/.test(className) ? '' : 'w-full'} ${className}`;

export function Input({ className = '', invalid, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  return <input aria-invalid={invalid || undefined} className={control(className)} {...props} />;
}

export function Textarea({ className = '', invalid, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }) {
  return <textarea aria-invalid={invalid || undefined} className={control(`font-mono text-xs ${className}`)} {...props} />;
}

export function Select({ className = '', ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={control(`pr-8 ${className}`)} {...props} />;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: TButtonVariant; size?: 'sm' | 'md'; ref?: Ref<HTMLButtonElement> }) {
  return <button type="button" className={`${buttonClass(variant, size)} ${className}`} {...props} />;
}

/** A submit button that disables itself and shows `pendingLabel` while its form's action runs. */
export function SubmitButton({
  children,
  pendingLabel,
  variant = 'primary',
  size = 'md',
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { pendingLabel?: ReactNode; variant?: TButtonVariant; size?: 'sm' | 'md' }) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending || props.disabled}
      aria-busy={pending || undefined}
      className={`${buttonClass(variant, size)} ${className}`}
      {...props}
    >
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}

export function Checkbox({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode }) {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-800">
      <input type="checkbox" className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500" {...props} />
      {label}
    </label>
  );
}
