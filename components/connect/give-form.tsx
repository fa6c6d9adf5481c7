import type { ReactNode } from 'react';
import { GIVE_FORM_ERRORS, PRESET_AMOUNTS, type TGiveFormError, type TGiveFormValues } from '@/lib/service/connect-page/give-form';
import { DAF_FUNDS, FEE_BASIS_POINTS } from '@/lib/service/grants/constants';

type TProps = {
  cid: string;
  nonprofitName: string;
  formToken: string;
  errors: TGiveFormError[];
  values: TGiveFormValues | null;
};

const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-surface px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 aria-[invalid=true]:border-rose-400 aria-[invalid=true]:ring-rose-200';

function Field({ label, name, hint, error, children }: { label: string; name: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
        {hint ? <span className="ml-1 font-normal text-slate-500">{hint}</span> : null}
      </label>
      {children}
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-xs text-rose-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The donor form: a plain HTML form POSTing to ./give, so it works without JavaScript. */
export function GiveForm({ cid, nonprofitName, formToken, errors, values }: TProps) {
  const errorOf = (field: TGiveFormError) => (errors.includes(field) ? GIVE_FORM_ERRORS[field] : undefined);
  const invalid = (field: TGiveFormError) => (errors.includes(field) ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {});
  const presetChosen = PRESET_AMOUNTS.map(String).find((p) => p === values?.amount);
  const customAmount = presetChosen ? '' : (values?.amount ?? '');
  const feePercent = `${FEE_BASIS_POINTS / 100}%`;

  return (
    <form id="give" method="post" action={`/connect/${encodeURIComponent(cid)}/give`} className="space-y-6 px-6 py-6 sm:px-8" noValidate>
      <input type="hidden" name="formToken" value={formToken} />

      {errors.length > 0 ? (
        <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
          <p className="font-medium">Please check the form.</p>
          <ul className="mt-1 list-disc pl-5">
            {errors.map((code) => (
              <li key={code}>{GIVE_FORM_ERRORS[code]}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <Field label="Donor-advised fund" name="fundId" error={errorOf('fundId')}>
        <select id="fundId" name="fundId" required defaultValue={values?.fundId ?? ''} className={inputClass} {...invalid('fundId')}>
          <option value="" disabled>
            Choose your fund sponsor…
          </option>
          {DAF_FUNDS.map((fund) => (
            <option key={fund.id} value={fund.id}>
              {fund.name}
            </option>
          ))}
        </select>
      </Field>

      <fieldset>
        <legend className="mb-1 block text-sm font-medium text-slate-700">Amount</legend>
        <div className="grid grid-cols-5 gap-2">
          {PRESET_AMOUNTS.map((amount) => (
            <label key={amount} className="cursor-pointer">
              <input type="radio" name="preset" value={amount} defaultChecked={presetChosen === String(amount)} className="peer sr-only" />
              <span className="block rounded-lg border border-slate-300 py-2 text-center text-sm font-medium text-slate-700 transition peer-checked:border-emerald-solid peer-checked:bg-emerald-solid peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-emerald-500/40 hover:border-emerald-400">
                ${amount}
              </span>
            </label>
          ))}
        </div>
        <div className="relative mt-2">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-500">$</span>
          <input
            id="amount"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="Other amount"
            defaultValue={customAmount}
            aria-label="Other amount in dollars"
            className={`${inputClass} pl-7`}
            {...invalid('amount')}
          />
        </div>
        {errorOf('amount') ? (
          <p id="amount-error" className="mt-1 text-xs text-rose-600">
            {errorOf('amount')}
          </p>
        ) : (
          <p className="mt-1 text-xs text-slate-500">Pick an amount or type another; a typed amount wins. From $1 to $1,000,000.</p>
        )}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" name="firstName" error={errorOf('firstName')}>
          <input
            id="firstName"
            name="firstName"
            autoComplete="given-name"
            required
            maxLength={100}
            defaultValue={values?.firstName}
            className={inputClass}
            {...invalid('firstName')}
          />
        </Field>
        <Field label="Last name" name="lastName" error={errorOf('lastName')}>
          <input
            id="lastName"
            name="lastName"
            autoComplete="family-name"
            required
            maxLength={100}
            defaultValue={values?.lastName}
            className={inputClass}
            {...invalid('lastName')}
          />
        </Field>
        <Field label="Email" name="email" error={errorOf('email')}>
          <input id="email" name="email" type="email" autoComplete="email" required defaultValue={values?.email} className={inputClass} {...invalid('email')} />
        </Field>
        <Field label="Phone" name="phone" hint="(optional)" error={errorOf('phone')}>
          <input id="phone" name="phone" type="tel" autoComplete="tel" defaultValue={values?.phone} className={inputClass} {...invalid('phone')} />
        </Field>
      </div>

      <Field label={`Note to ${nonprofitName}`} name="note" hint="(optional)" error={errorOf('note')}>
        <textarea id="note" name="note" rows={3} maxLength={1000} defaultValue={values?.note} className={inputClass} {...invalid('note')} />
      </Field>

      <label className="flex items-start gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
        <input
          type="checkbox"
          name="coverFees"
          value="on"
          defaultChecked={values?.coverFees ?? false}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 accent-emerald-600"
        />
        <span>
          <span className="font-medium">Cover the fees.</span> Add {feePercent} so {nonprofitName} receives the full amount.
        </span>
      </label>

      <button
        type="submit"
        className="w-full rounded-lg bg-emerald-solid px-4 py-3 text-sm font-semibold text-white shadow-sm transition hover:bg-emerald-solid-hover focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2"
      >
        Recommend grant
      </button>
    </form>
  );
}
