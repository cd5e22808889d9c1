// The dashboard's text inputs and selects, one look everywhere. A field with aria-invalid="true" gets a red
// ring by itself (the attribute selector outranks the plain ring colour), so forms only set the attribute.
export const inputClass =
  'block w-full rounded-md border-0 px-3 py-2 outline-none text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-invalid:ring-red-500';
